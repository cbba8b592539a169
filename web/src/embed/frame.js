// frame.html's entry: everything it runs is in frame-main.js, loaded
// dynamically, so no module it shares with attnlab.js ends up in this entry
// chunk (which a host page would then run).
import('./frame-main.js');
