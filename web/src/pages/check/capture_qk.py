# Capture q and k from one attention module of a PyTorch model and save them
# for the checker (this page, or: attnlab check qk.npz).
import numpy as np
import torch

model = ...                                   # your model, freshly initialised
batch = ...                                   # a batch of real inputs
attn = model.encoder.layer[0].attention.self  # the attention module to check (here: BERT)
heads = attn.num_attention_heads              # d_k = width // heads

captured = {}


def keep(name):
    def hook(module, inputs, output):
        captured[name] = output.detach()
    return hook


# Forward hooks on its query and key projections (LLaMA-style: attn.q_proj, attn.k_proj).
hooks = [attn.query.register_forward_hook(keep("q")),
         attn.key.register_forward_hook(keep("k"))]
with torch.no_grad():
    model(**batch)
for h in hooks:
    h.remove()


def per_head(x):
    """[batch, n, heads * d_k] -> [heads, n, d_k], for the first sequence."""
    n, width = x.shape[1], x.shape[2]
    return x[0].reshape(n, heads, width // heads).transpose(0, 1).float().cpu().numpy()


np.savez("qk.npz", q=per_head(captured["q"]), k=per_head(captured["k"]))
# Or two files: np.save("q.npy", per_head(captured["q"])); np.save("k.npy", ...)
