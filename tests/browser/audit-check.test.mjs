// axe-core, the clipping check and screenshots of check.html (audit-pages.mjs says what each checks).
import { auditPages } from './audit-pages.mjs';

auditPages(['check'], { clippingSelfTest: true });
