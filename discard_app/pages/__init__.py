"""One module a page: the page function beside its own state."""
