"""Privacy for always-on capture: redaction before storage, retention, encryption at rest, the
privacy report, and a network guard proving nothing leaves the machine."""
