// Types of `import 'attnlab/widgets'`: the custom elements it defines, their
// attributes and properties, their events, and JSX declarations so a TSX host
// (React 19 with either JSX runtime, or any framework reading the global JSX
// namespace) type-checks <attn-saturation dk={256} controls="none" />.
// Hand-written: tests/node/npm_types.test.mjs checks that every attribute in
// a widget's `static options` (web/src/widgets/attn-*.js) is declared here
// for that element, and every element of web/src/embed/attnlab.js too.

/** Widgets' language: 'en' or 'zh' (a tag such as 'zh-Hans' works); default: the host's <html lang>, else the browser's. */
export type AttnLang = 'en' | 'zh' | (string & {});
/** 'auto' follows prefers-color-scheme. */
export type AttnTheme = 'light' | 'dark' | 'auto';
/** 'none': a fixed figure, the inputs hidden (still computed from the attributes). */
export type AttnControls = 'none' | 'all';
/** √d_k, d_k, 1, 2, or any positive number. */
export type AttnDivisor = 'sqrt' | 'dk' | '1' | '2' | number;

/**
 * What stopped or slowed a widget's setup, found out on the page: no CORS on a
 * file, a CSP directive, a page opened from file://, a wrong MIME type, a file
 * missing or a server that did not answer; 'core' and 'load' when the cause is
 * none of those (the core, or the widget's code, did not load).
 */
export type AttnSetupKind = 'cors' | 'connect-src' | 'worker-src' | 'wasm-unsafe-eval' | 'script-src' | 'file' | 'mime' | 'missing' | 'unreachable' | 'core' | 'load';

/** detail of the attn-error event: an attribute it cannot use, or what went wrong with its setup. */
export interface AttnErrorDetail {
  kind: 'attribute' | AttnSetupKind | (string & {});
  /** In the widget's language, as the widget shows it. */
  message: string;
  /** kind 'attribute': the attribute that was refused (its default is used instead), or one the widget does not have. */
  attribute?: string;
  /** kind 'attribute': the text that was refused. */
  value?: string;
  /** A setup kind: true when the widget cannot compute, false when it still does (on the main thread, or from a .wasm of the wrong type). */
  fatal?: boolean;
  /** kinds 'cors' and 'mime': which file: the widget's code, the worker, or the .wasm. */
  file?: 'code' | 'worker' | 'wasm';
}

/** One line of check(): a file of the deployment, or the page's Content-Security-Policy. */
export interface AttnCheckLine {
  /** The file's URL, or 'Content-Security-Policy'. */
  file: string;
  ok: boolean;
  kind?: AttnSetupKind;
  /** The sentence a widget would show ('' when ok). */
  message: string;
}

/** Events every widget fires (bubbling, composed: they cross its shadow root). */
export interface AttnElementEventMap<State> extends HTMLElementEventMap {
  /** The widget's state changed (the reader moved a control, or an attribute changed). */
  change: CustomEvent<State>;
  'attn-error': CustomEvent<AttnErrorDetail>;
}

/** What every widget element has. Option properties reflect their attributes (el.dk = 256 sets dk="256"). */
export interface AttnElementBase<State = Record<string, unknown>> extends HTMLElement {
  theme: AttnTheme;
  controls: AttnControls;
  /** The widget's state: the change event's detail. */
  state(): State;
  addEventListener<K extends keyof AttnElementEventMap<State>>(type: K, listener: (this: this, ev: AttnElementEventMap<State>[K]) => any, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof AttnElementEventMap<State>>(type: K, listener: (this: this, ev: AttnElementEventMap<State>[K]) => any, options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
}

// ---- <attn-saturation> ----------------------------------------------------
export interface AttnSaturationState { dk: number; m: number; divisor: AttnDivisor; seed: number }
export interface AttnSaturationElement extends AttnElementBase<AttnSaturationState> {
  /** Key dimension d_k, 1..4096 (default 64). */
  dk: number;
  /** Sequence length m, 2..512 (default 16). */
  m: number;
  /** The divisor of the scores (default 'sqrt'). */
  divisor: AttnDivisor;
  /** 0..2^32-1 (default 1). */
  seed: number;
}
export interface AttnSaturationAttributes {
  dk?: number | string;
  m?: number | string;
  divisor?: AttnDivisor | `${number}`;
  seed?: number | string;
}

// ---- <attn-variance> ------------------------------------------------------
export interface AttnVarianceState { dk: number; sigmaQ: number; sigmaK: number; rho: number; seed: number }
export interface AttnVarianceElement extends AttnElementBase<AttnVarianceState> {
  /** 1..4096 (default 64). */
  dk: number;
  /** Attribute sigma-q: σ of q's entries, 0.1..3 (default 1). */
  sigmaQ: number;
  /** Attribute sigma-k: σ of k's entries, 0.1..3 (default 1). */
  sigmaK: number;
  /** Correlation of q and k, -1..1 (default 0). */
  rho: number;
  seed: number;
}
export interface AttnVarianceAttributes {
  dk?: number | string;
  'sigma-q'?: number | string;
  'sigma-k'?: number | string;
  rho?: number | string;
  seed?: number | string;
}

// ---- <attn-proof> ---------------------------------------------------------
export interface AttnProofState { dk: number; step: number; seed: number }
export interface AttnProofElement extends AttnElementBase<AttnProofState> {
  /** 1..6 (default 3). */
  dk: number;
  /** The proof's step, 1..7 (default 1). */
  step: number;
  seed: number;
}
export interface AttnProofAttributes {
  dk?: number | string;
  step?: number | string;
  seed?: number | string;
}

// ---- <attn-softmax-table> -------------------------------------------------
/** As typed (the table shows its own message for text it cannot read). */
export interface AttnSoftmaxTableState { scores: string; dk: string; scores2: string; dk2: string }
export interface AttnSoftmaxTableElement extends AttnElementBase<AttnSoftmaxTableState> {
  /** The first example's scores, comma-separated (default '14, 10, 12'). */
  scores: string;
  /** The first example's d_k (default '64'). */
  dk: string;
  /** The second example's scores (default '1, 0.5, 0.8'). */
  scores2: string;
  /** The second example's d_k (default '4'). */
  dk2: string;
}
export interface AttnSoftmaxTableAttributes {
  scores?: string;
  dk?: number | string;
  scores2?: string;
  dk2?: number | string;
}

// ---- <attn-chain> ---------------------------------------------------------
/** The causal chain as a flowchart, its text version and its Mermaid source: no options. */
export interface AttnChainElement extends AttnElementBase<Record<string, never>> {}
export interface AttnChainAttributes {}

// ---- <attn-train-compare> -------------------------------------------------
export interface AttnTrainCompareElement extends AttnElementBase {
  dk: number;
  /** Comma-separated divisors to train with, e.g. '1,sqrt'. */
  divisors: string;
  steps: number;
  seed: number;
  optimizer: 'adam' | 'sgd';
  /** The learning rate; null: the core's reference rate for the optimizer and d_k. */
  lr: number | null;
  /** Start a comparison with the current values; false if one is running. */
  start(): Promise<boolean>;
  /** Stop the running comparison. */
  stop(): void;
}
export interface AttnTrainCompareAttributes {
  dk?: number | string;
  divisors?: string;
  steps?: number | string;
  seed?: number | string;
  optimizer?: 'adam' | 'sgd';
  lr?: number | string;
  /** Present: start when the element connects. */
  autostart?: boolean | '';
}

/** Attributes every widget reads. */
export interface AttnCommonAttributes {
  lang?: AttnLang;
  theme?: AttnTheme;
  controls?: AttnControls;
  /** Keeps element ids unique when a widget appears twice on a page. */
  'id-prefix'?: string;
}

/** Tag -> element: what `import 'attnlab/widgets'` defines. */
export interface AttnElements {
  'attn-chain': AttnChainElement;
  'attn-variance': AttnVarianceElement;
  'attn-proof': AttnProofElement;
  'attn-softmax-table': AttnSoftmaxTableElement;
  'attn-saturation': AttnSaturationElement;
  'attn-train-compare': AttnTrainCompareElement;
}

/** Tag -> its own attributes (without the common ones). */
export interface AttnAttributes {
  'attn-chain': AttnChainAttributes;
  'attn-variance': AttnVarianceAttributes;
  'attn-proof': AttnProofAttributes;
  'attn-softmax-table': AttnSoftmaxTableAttributes;
  'attn-saturation': AttnSaturationAttributes;
  'attn-train-compare': AttnTrainCompareAttributes;
}

export type AttnTag = keyof AttnElements;

/** Each tag's loader (the import of its code). */
export declare const WIDGETS: { readonly [K in AttnTag]: () => Promise<unknown> };
/** Define one widget's element (loads its code); resolves when it is defined. Rejects for an unknown tag. */
export declare function define(tag: AttnTag): Promise<void>;
/** Define every widget element now. */
export declare function defineAll(): Promise<void[]>;
/** Define the widgets used under root (default: the document; pass a host's own shadow root). */
export declare function discover(root?: Document | DocumentFragment | Element): void;
/**
 * Run the widgets' setup checks on request: the files a first widget loads from
 * `scriptUrl` (default: this module's), each there, with CORS and its type, and
 * a Content-Security-Policy (default: the page's <meta> one). In a console:
 * `(await import('https://…/embed/attnlab.js')).check().then(console.table)`.
 */
export declare function check(scriptUrl?: string, options?: { csp?: string; lang?: 'en' | 'zh'; files?: boolean }): Promise<AttnCheckLine[]>;

/** Minimal HTML attributes for a JSX namespace that is not React's. */
interface AttnPlainJsxAttributes {
  id?: string;
  class?: string;
  className?: string;
  slot?: string;
  hidden?: boolean;
  title?: string;
  style?: string | Record<string, string | number>;
  key?: string | number;
  ref?: unknown;
  children?: unknown;
}

type AttnJsx<K extends AttnTag, Html> = AttnAttributes[K] & AttnCommonAttributes & Omit<Html, keyof AttnAttributes[K] | keyof AttnCommonAttributes>;

declare global {
  interface HTMLElementTagNameMap extends AttnElements {}

  namespace JSX {
    interface IntrinsicElements {
      'attn-chain': AttnJsx<'attn-chain', AttnPlainJsxAttributes>;
      'attn-variance': AttnJsx<'attn-variance', AttnPlainJsxAttributes>;
      'attn-proof': AttnJsx<'attn-proof', AttnPlainJsxAttributes>;
      'attn-softmax-table': AttnJsx<'attn-softmax-table', AttnPlainJsxAttributes>;
      'attn-saturation': AttnJsx<'attn-saturation', AttnPlainJsxAttributes>;
      'attn-train-compare': AttnJsx<'attn-train-compare', AttnPlainJsxAttributes>;
    }
  }
}

// React 19 reads React.JSX (both the classic runtime and react-jsx). Hosts
// without @types/react: keep skipLibCheck on (the usual setting) or this
// augmentation of an absent module is reported.
type AttnReactProps<K extends AttnTag> = AttnJsx<K, import('react').DetailedHTMLProps<import('react').HTMLAttributes<AttnElements[K]>, AttnElements[K]>>;

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'attn-chain': AttnReactProps<'attn-chain'>;
      'attn-variance': AttnReactProps<'attn-variance'>;
      'attn-proof': AttnReactProps<'attn-proof'>;
      'attn-softmax-table': AttnReactProps<'attn-softmax-table'>;
      'attn-saturation': AttnReactProps<'attn-saturation'>;
      'attn-train-compare': AttnReactProps<'attn-train-compare'>;
    }
  }
}
