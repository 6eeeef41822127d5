"""The transport of `egocli serve`: the aiohttp server (token middleware, TLS), WebRTC and WebSocket
sessions, the wire protocol, answer playback and its pacer, and a test client. What is served is an
`egocli.stream.host.Application` passed down by whoever starts the server (egocli.assistant.serve)."""
