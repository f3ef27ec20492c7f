"""Ekko Memory inside other agents' hosts (each imports its host only when the host loads it)."""
