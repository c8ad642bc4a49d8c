# Type stubs of the native module (python/src/lib.rs).

PROTOCOL_VERSION: int

class Engine:
    """One engine session, as `roots engine` (docs/protocol.md)."""

    def __init__(self, files: bool = True) -> None: ...
    def handle(self, line: str) -> str:
        """Answer one request line (JSON) with one answer line (JSON)."""
        ...
