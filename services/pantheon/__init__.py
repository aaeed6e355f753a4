"""Import of hanchan results from Pantheon (Регламент §6.2); imports no reflex."""
