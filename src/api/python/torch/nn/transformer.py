"""``nn.Transformer``: only its static ``generate_square_subsequent_mask`` so far (the encoder-
decoder model itself is not built; ``nn.TransformerEncoder`` and ``nn.TransformerEncoderLayer`` are
the engine's)."""

from .module import Module


class Transformer(Module):
    def __init__(self, *args, **kwargs):
        raise NotImplementedError(
            "nn.Transformer (the encoder-decoder model) is not implemented yet; "
            "nn.TransformerEncoder and nn.TransformerEncoderLayer are"
        )

    @staticmethod
    def generate_square_subsequent_mask(sz, device=None, dtype=None):
        """[sz, sz] float mask: -inf above the diagonal, 0 elsewhere (position i sees j <= i)."""
        import torch

        rows = [[float("-inf") if j > i else 0.0 for j in range(sz)] for i in range(sz)]
        return torch.tensor(rows, device=device if device is not None else "cpu")
