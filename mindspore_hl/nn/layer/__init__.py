"""nn/layer."""
__all__ = []
