// The one sentence every core error falls back to, before error-strings.js
// has loaded or for a kind it does not know. Its own module so that errors.js
// (loaded up front) and error-strings.js (loaded on the first error) share it
// without importing each other.
import { defineStrings } from '../base/i18n.js';

defineStrings('coreerr', {
  en: { generic: 'This value cannot be used here. Try another one.' },
  zh: { generic: '这里无法使用这个值，请换一个。' },
});
