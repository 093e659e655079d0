"""Command line (click). `memoryrush` with no command opens the app."""
