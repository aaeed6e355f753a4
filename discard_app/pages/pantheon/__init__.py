"""The organizer's Pantheon import page."""
