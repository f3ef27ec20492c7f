"""Small async functions that call the core off the GUI thread (through AsyncMemory)."""
