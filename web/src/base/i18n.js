// The site's text in English and Simplified Chinese, and the language switch's
// state. Every page and widget registers its own tables under a prefix
// (defineStrings('lab', {en, zh}) -> 'lab.title'); t() is the one lookup for
// all of them. The language lives in the URL (?lang=zh, so a link shares it)
// and in localStorage (so it is remembered); the URL wins.
import { getParam, setParam } from './url.js';

export const LANGS = { en: 'English', zh: '简体中文' };
const INTL_LOCALE = { en: 'en', zh: 'zh-CN' };
const HTML_LANG = { en: 'en', zh: 'zh-Hans' };
const STORAGE_KEY = 'attnlab.lang';
const OLD_STORAGE_KEY = 'attn-scale.lang';  // the project's former name: a choice stored under it still counts

// Every registered string, by full key ('lab.title'), per language.
const STRINGS = { en: {}, zh: {} };

/**
 * Register a module's strings, {en: {key: text}, zh: {key: text}}, as
 * `${prefix}.${key}`. Each module brings its own, so a widget placed alone on
 * a page still has them. A key given two different texts throws: the later
 * module would otherwise win in silence.
 */
export function defineStrings(prefix, tables) {
  if (!/^[a-z]+$/i.test(prefix)) throw new Error(`string prefix "${prefix}" must be letters only`);
  for (const l of Object.keys(LANGS)) {
    for (const [key, text] of Object.entries(tables[l])) {
      const name = `${prefix}.${key}`;
      if (Object.hasOwn(STRINGS[l], name) && STRINGS[l][name] !== text) throw new Error(`string "${name}" defined twice`);
      STRINGS[l][name] = text;
    }
  }
}

function readStored() {
  try {
    return localStorage.getItem(STORAGE_KEY) ?? localStorage.getItem(OLD_STORAGE_KEY);
  } catch {
    return null; // storage disabled: the URL still carries the choice
  }
}

function initialLang() {
  for (const l of [getParam('lang'), readStored()]) if (Object.hasOwn(LANGS, l ?? '')) return l;
  return browserLang();
}

// Read on first use, so a page that embeds widgets (which call useLang) never
// has its URL or storage read for a choice of ours.
let lang = null;
const listeners = new Set();

export function getLang() {
  return (lang ??= initialLang());
}

/** 'en' or 'zh' for a BCP 47 tag ('zh-Hans', 'zh-CN', 'en-GB'), or null for any other. */
export function langOfTag(tag) {
  const m = /^([a-z]{2,3})\b/i.exec(String(tag ?? '').trim());
  const l = m?.[1].toLowerCase();
  return Object.hasOwn(LANGS, l ?? '') ? l : null;
}

/** The browser's preferred language of ours ('zh' for any zh-*, else 'en'). */
export function browserLang() {
  return (navigator.languages ?? [navigator.language]).some((l) => langOfTag(l) === 'zh') ? 'zh' : 'en';
}

/**
 * Run fn with t(), locale() and getLang() answering in `l`: an embedded widget
 * speaks its own lang attribute whatever its neighbours speak (element.js
 * wraps each widget method in this). Synchronous: what fn awaits runs later,
 * in whatever language is current then.
 */
export function inLang(l, fn) {
  if (l === getLang() || !Object.hasOwn(LANGS, l)) return fn();
  const prev = lang;
  lang = l;
  try {
    return fn();
  } finally {
    lang = prev;
  }
}

/** BCP 47 tag for Intl formatters. */
export function locale() {
  return INTL_LOCALE[getLang()];
}

/**
 * The string for `key` ('lab.title') in the page's language, English where
 * the language lacks it; throws, naming the key, when no language has it.
 * Each {name} is filled from params; a {name} that params lacks stays as written.
 */
export function t(key, params = {}) {
  const text = STRINGS[getLang()][key] ?? STRINGS.en[key];
  if (text === undefined) throw new Error(`missing string "${key}"`);
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

export function setLang(next) {
  if (!Object.hasOwn(LANGS, next)) return;
  lang = next;
  try {
    localStorage.setItem(STORAGE_KEY, next);
  } catch {
    /* storage disabled */
  }
  setParam('lang', next);
  applyDocument();
  for (const fn of listeners) fn(next);
}

/** Set the language for this document's scripts only: no URL, no storage, no <html lang> (the embed). */
export function useLang(next) {
  if (Object.hasOwn(LANGS, next)) lang = next;
}

/** Call fn(lang) after every language change. */
export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/**
 * Set the document's lang and fill every [data-i18n] element under root (the
 * <title> too), and the content of every [data-i18n-content] one (the <meta
 * name="description">).
 */
export function applyDocument(root = document) {
  document.documentElement.lang = HTML_LANG[getLang()];
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-content]')) el.setAttribute('content', t(el.dataset.i18nContent));
}

// For the test of every table (tests/node/strings.test.mjs): both languages define the same keys.
export const _strings = STRINGS;
