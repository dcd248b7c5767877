package io.crater.interactive;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.nio.file.Path;
import java.time.Duration;

/** Settings of the SSH gateway. */
@ConfigMapping(prefix = "crater.ssh")
public interface SshConfig {

    /** Whether the gateway listens at all. */
    @WithDefault("true")
    boolean enabled();

    /** The address it listens on: loopback in the embedded default, like the console. */
    @WithDefault("127.0.0.1")
    String host();

    /** The port it listens on (0: any free port, for tests). */
    @WithDefault("2222")
    int port();

    /** The host name users connect to, shown in the console's command and ~/.ssh/config snippet. */
    @WithDefault("localhost")
    String publicHost();

    /** The port users connect to, when a load balancer maps another one to {@link #port()}. */
    java.util.Optional<Integer> publicPort();

    /**
     * Where Crater sees the shared file spaces (the root of the RWX claim that pods mount by subPath: {@code
     * users/<name>}, {@code accounts/<slug>}, {@code public}). SFTP serves the user's own space from here.
     */
    @WithDefault("${crater.home}/spaces")
    Path spacesRoot();

    /** How often the gateway sends a keepalive on an idle connection, so NATs and balancers keep it. */
    @WithDefault("30s")
    Duration keepalive();
}
