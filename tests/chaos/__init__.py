"""The chaos differential suite: a misbehaving proxy, drawn per seed, in front of the reference
service; the client's result through it must equal a fault-free fetch, or be a typed error."""
