"""The prompt renderer lives with the models (``ekko_memory.models.context_render``):
``MemoryContext.render`` is a pure function of the model. The service's extraction
estimates tokens with the same counter, imported from here."""

from ekko_memory.models.context_render import estimate_tokens

__all__ = ["estimate_tokens"]
