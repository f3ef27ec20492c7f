"""Ekko Memory desktop app."""
