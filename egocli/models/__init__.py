"""Model Protocols, one module per real backend, the fakes tests use, and the registry that loads them."""
