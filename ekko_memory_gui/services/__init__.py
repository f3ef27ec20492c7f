"""App-wide services: settings, dialogs, theme, fonts, icons, translations."""
