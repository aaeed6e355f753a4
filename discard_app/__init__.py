"""The Reflex shell of Discard League: pages, state and components."""
