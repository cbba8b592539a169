// axe-core, the clipping check and screenshots of index.html (audit-pages.mjs says what each checks).
import { auditPages } from './audit-pages.mjs';

auditPages(['index']);
