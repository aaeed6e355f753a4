"""The `discard` command line (`cli`) and its subcommands, one module each, and the demo league a fresh installation
starts with (`demo_league`). The outermost layer beside the pages and the bot: it may import any service.
"""
