package io.crater.interactive;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.sshd.common.file.virtualfs.VirtualFileSystemFactory;
import org.apache.sshd.common.keyprovider.KeyPairProvider;
import org.apache.sshd.common.session.Session;
import org.apache.sshd.common.session.SessionContext;
import org.apache.sshd.common.session.SessionHeartbeatController;
import org.apache.sshd.common.session.SessionListener;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.auth.pubkey.UserAuthPublicKeyFactory;
import org.apache.sshd.server.channel.ChannelSessionFactory;
import org.apache.sshd.server.session.ServerSession;
import org.apache.sshd.sftp.server.SftpSubsystemFactory;
import org.jboss.logging.Logger;

/**
 * The SSH gateway: one port for every job, {@code ssh -p 2222 <user>+<job>[+<task>-<index>]@host}, public keys
 * only. Shell and exec channels run in the job's container through {@code pods/exec}, {@code direct-tcpip}
 * reaches the pod's loopback through {@code pods/portforward}, and {@code sftp} (also what {@code scp} speaks
 * since OpenSSH 9) serves the user's own file space, which the pod mounts as its home. Remote forwarding, agent
 * forwarding and X11 are refused.
 */
@ApplicationScoped
public class SshGateway {

    private static final Logger LOG = Logger.getLogger(SshGateway.class);

    @Inject
    SshConfig config;

    @Inject
    SshEntries entries;

    @Inject
    PodExec exec;

    @Inject
    KubernetesClient client;

    @Inject
    PodTunnels tunnels;

    private SshServer server;
    private final ExecutorService pumps = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "crater-ssh-stdin");
        t.setDaemon(true);
        return t;
    });

    void onStart(@Observes @Priority(70) StartupEvent event) throws Throwable {
        if (!config.enabled()) {
            return;
        }
        SshServer s = SshServer.setUpDefaultServer();
        s.setHost(config.host());
        s.setPort(config.port());
        s.setKeyPairProvider(KeyPairProvider.wrap(HostKeys.loadOrCreate()));
        s.setUserAuthFactories(List.of(UserAuthPublicKeyFactory.INSTANCE));
        s.setPublickeyAuthenticator(entries);
        s.setShellFactory(channel -> new PodCommand(entries, exec, pumps, null));
        s.setCommandFactory((channel, command) -> new PodCommand(entries, exec, pumps, command));
        s.setSubsystemFactories(List.of(new SftpSubsystemFactory.Builder().build()));
        s.setFileSystemFactory(new UserSpaces());
        s.setChannelFactories(List.of(ChannelSessionFactory.INSTANCE, new PodForwardChannel.Factory(entries, tunnels)));
        s.setSessionHeartbeat(SessionHeartbeatController.HeartbeatType.IGNORE, config.keepalive());
        s.addSessionListener(new SessionListener() {
            @Override
            public void sessionEvent(Session session, Event event) {
                if (event == Event.Authenticated && session instanceof ServerSession server) {
                    entries.authenticated(server);
                }
            }

            @Override
            public void sessionClosed(Session session) {
                entries.closed(session);
            }
        });
        s.start();
        server = s;
        LOG.infof("SSH gateway listening on %s:%d", config.host(), port());
    }

    void onStop(@Observes ShutdownEvent event) throws IOException {
        if (server != null) {
            server.stop(true);
        }
        pumps.shutdownNow();
    }

    /** The port it listens on (the bound one when configured as 0). */
    public int port() {
        return server == null
                ? -1
                : server.getBoundAddresses().stream()
                        .filter(InetSocketAddress.class::isInstance)
                        .map(a -> ((InetSocketAddress) a).getPort())
                        .findFirst()
                        .orElse(config.port());
    }

    /**
     * SFTP's file system: the signed-in user's own space ({@code users/<name>} under the spaces root), which pods
     * mount at {@code /crater/user} and use as {@code HOME}; a connection whose job was refused gets none.
     */
    private final class UserSpaces extends VirtualFileSystemFactory {
        @Override
        public Path getUserHomeDir(SessionContext session) throws IOException {
            SshEntries.Entry e = entries.of((Session) session);
            if (e == null || e.refusal() != null) {
                throw new IOException(e == null ? "no job was named" : e.refusal());
            }
            Path home = config.spacesRoot().resolve("users").resolve(e.slug());
            Files.createDirectories(home);
            return home;
        }
    }
}
