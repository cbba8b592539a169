// The source line of each row of "What real models divide by"
// (presets-table.js), keyed by the core's preset name. The English is the
// core's own line (base/presets.cpp; tests/browser/presets.test.mjs holds the
// page to it), the Chinese its translation: the citations' code and file
// names stay as written. A preset the core adds without a line here shows
// the core's English.
import { defineStrings } from '../../base/i18n.js';

defineStrings('page', {
  en: {
    'presets.source.gpt2': 'Radford et al. 2019; Hugging Face transformers modeling_gpt2.py: attn_weights / sqrt(head_dim), 768 / 12 heads',
    'presets.source.bert-base': 'Devlin et al. 2019; google-research/bert modeling.py: 1 / sqrt(size_per_head), 768 / 12 heads',
    'presets.source.llama': 'meta-llama/llama3 model.py: scores / math.sqrt(head_dim), head_dim 128 (4096 / 32 heads)',
    'presets.source.gemma2-2b': 'google/gemma-2-2b config.json: head_dim 256, query_pre_attn_scalar 256, attn_logit_softcapping 50.0',
    'presets.source.gemma2-9b': 'google/gemma-2-9b config.json: head_dim 256, query_pre_attn_scalar 256, attn_logit_softcapping 50.0',
    'presets.source.gemma2-27b': 'google/gemma-2-27b config.json: head_dim 128, query_pre_attn_scalar 144, attn_logit_softcapping 50.0',
    'presets.source.t5': 'Raffel et al. 2020; mesh-tensorflow transformer attention: no 1/sqrt(d_kv), W_Q initialised with std (d_model * d_kv)^-0.5; t5-base d_kv 64',
    'presets.source.mup': 'Yang et al. 2022, Tensor Programs V: attention logits q.k / d_k; microsoft/mup writes it 8 / d_k, which equals 1 / sqrt(d_k) at d_k = 64',
  },
  zh: {
    'presets.source.gpt2': 'Radford 等，2019；Hugging Face transformers 的 modeling_gpt2.py：attn_weights / sqrt(head_dim)，768 维、12 个头',
    'presets.source.bert-base': 'Devlin 等，2019；google-research/bert 的 modeling.py：1 / sqrt(size_per_head)，768 维、12 个头',
    'presets.source.llama': 'meta-llama/llama3 的 model.py：scores / math.sqrt(head_dim)，head_dim 为 128（4096 维、32 个头）',
    'presets.source.gemma2-2b': 'google/gemma-2-2b 的 config.json：head_dim 256，query_pre_attn_scalar 256，attn_logit_softcapping 50.0',
    'presets.source.gemma2-9b': 'google/gemma-2-9b 的 config.json：head_dim 256，query_pre_attn_scalar 256，attn_logit_softcapping 50.0',
    'presets.source.gemma2-27b': 'google/gemma-2-27b 的 config.json：head_dim 128，query_pre_attn_scalar 144，attn_logit_softcapping 50.0',
    'presets.source.t5': 'Raffel 等，2020；mesh-tensorflow 的 transformer attention：不除以 1/sqrt(d_kv)，W_Q 按标准差 (d_model * d_kv)^-0.5 初始化；t5-base 的 d_kv 为 64',
    'presets.source.mup': 'Yang 等，2022，Tensor Programs V：注意力 logit 为 q.k / d_k；microsoft/mup 写作 8 / d_k，在 d_k = 64 时等于 1 / sqrt(d_k)',
  },
});
