"""Build-time code: Markdown and directives, static figures, runtime vendoring, the dev server."""
