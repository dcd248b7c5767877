package io.crater.mcp;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Settings of the MCP endpoint at {@code /mcp} (docs/agents.md). */
@ConfigMapping(prefix = "crater.mcp")
public interface McpConfig {

    /**
     * Origins, besides the server's own, whose pages may call {@code /mcp} (e.g. the console's public origin when a
     * proxy in front rewrites the Host header), written as {@code https://crater.example.org}.
     */
    Optional<List<String>> allowedOrigins();

    /** How long a session id stays valid after {@code initialize}; the client then starts a new session. */
    @WithDefault("24h")
    Duration sessionLifetime();
}
