"""What-if replay: re-decide logged messages under a changed configuration, acting on nothing."""
