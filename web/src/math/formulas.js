// The TeX of every static formula on the page. They are typeset at build time
// (vite.config.js renders them with KaTeX into the virtual module
// 'virtual:attn-formulas'), so the browser never downloads KaTeX's JavaScript:
// only its stylesheet and fonts, and only when a formula comes into view.
// `text` is what shows before that (and is the formula's plain-text form).
export const FORMULAS = {
  dot: { tex: 'q\\cdot k=\\sum_{i=1}^{d_k} q_i k_i', text: 'q·k = Σᵢ qᵢkᵢ' },
  square: {
    tex: '(q\\cdot k)^2=\\sum_{i=1}^{d_k}\\sum_{j=1}^{d_k} q_i k_i\\, q_j k_j',
    text: '(q·k)² = Σᵢ Σⱼ qᵢkᵢ qⱼkⱼ',
  },
  diagonal: {
    tex: '\\mathbb{E}[q_i^2 k_i^2]=\\mathbb{E}[q_i^2]\\,\\mathbb{E}[k_i^2]=1\\cdot 1=1',
    text: 'E[qᵢ²kᵢ²] = E[qᵢ²] E[kᵢ²] = 1 · 1 = 1',
  },
  cross: {
    tex: '\\begin{aligned}\\mathbb{E}[q_i k_i q_j k_j]&=\\mathbb{E}[q_i]\\,\\mathbb{E}[k_i]\\,\\mathbb{E}[q_j]\\,\\mathbb{E}[k_j]\\\\&=0\\quad(i\\ne j)\\end{aligned}',
    text: 'E[qᵢkᵢqⱼkⱼ] = E[qᵢ] E[kᵢ] E[qⱼ] E[kⱼ] = 0  (i ≠ j)',
  },
  sum: {
    tex: '\\begin{aligned}\\operatorname{Var}(q\\cdot k)&=\\mathbb{E}[(q\\cdot k)^2]-\\mathbb{E}[q\\cdot k]^2\\\\&=d_k\\cdot 1+(d_k^2-d_k)\\cdot 0-0\\\\&=d_k\\end{aligned}',
    text: 'Var(q·k) = E[(q·k)²] − E[q·k]² = dₖ·1 + (dₖ² − dₖ)·0 − 0 = dₖ',
  },
  divide: {
    tex: '\\operatorname{Var}\\!\\left(\\frac{q\\cdot k}{c}\\right)=\\frac{\\operatorname{Var}(q\\cdot k)}{c^2}=\\frac{d_k}{c^2}',
    text: 'Var(q·k / c) = Var(q·k) / c² = dₖ / c²',
  },
  choose: {
    tex: '\\begin{aligned}\\frac{d_k}{c^2}=1&\\iff c=\\sqrt{d_k}\\\\&\\Rightarrow\\ \\operatorname{softmax}\\!\\left(\\frac{QK^\\top}{\\sqrt{d_k}}\\right)V\\end{aligned}',
    text: 'dₖ / c² = 1 ⇔ c = √dₖ  ⇒  softmax(QKᵀ / √dₖ) V',
  },
};
