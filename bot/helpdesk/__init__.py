"""The help desk around the brain's routes: App Home and modals (listeners in
`bot.listeners.helpdesk`)."""
