package io.crater.interactive;

import io.fabric8.kubernetes.client.PortForward;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.List;
import java.util.Set;
import org.apache.sshd.client.future.DefaultOpenFuture;
import org.apache.sshd.client.future.OpenFuture;
import org.apache.sshd.common.SshConstants;
import org.apache.sshd.common.channel.ChannelFactory;
import org.apache.sshd.common.channel.ChannelOutputStream;
import org.apache.sshd.common.channel.exception.SshChannelOpenException;
import org.apache.sshd.common.session.Session;
import org.apache.sshd.common.util.buffer.Buffer;
import org.apache.sshd.server.channel.AbstractServerChannel;
import org.slf4j.LoggerFactory;

/**
 * {@code direct-tcpip} ({@code ssh -L}, VS Code's tunnel to its server) carried by the Kubernetes
 * {@code pods/portforward} API, which reaches 127.0.0.1 inside the job's pod. Crater never dials a TCP address
 * itself: a dial from Crater would reach Crater's own network, not the pod's loopback, and any other target
 * would make the gateway a way into the cluster network. So only {@code localhost} targets are accepted, only
 * for the connection's own pod; everything else is refused with the reason.
 */
final class PodForwardChannel extends AbstractServerChannel {

    static final Set<String> LOOPBACK = Set.of("localhost", "127.0.0.1", "::1", "0:0:0:0:0:0:0:1");
    private static final org.slf4j.Logger LOG = LoggerFactory.getLogger(PodForwardChannel.class);

    /** Opens these channels for the gateway. */
    static final class Factory implements ChannelFactory {
        private final SshEntries entries;
        private final PodTunnels tunnels;

        Factory(SshEntries entries, PodTunnels tunnels) {
            this.entries = entries;
            this.tunnels = tunnels;
        }

        @Override
        public String getName() {
            return "direct-tcpip";
        }

        @Override
        public org.apache.sshd.common.channel.Channel createChannel(Session session) {
            return new PodForwardChannel(entries, tunnels);
        }
    }

    private final SshEntries entries;
    private final PodTunnels tunnels;
    /** What the client sent, waiting for the port-forward to read it; ended by the client's EOF. */
    private final QueuedChannel inbound =
            new QueuedChannel(n -> getLocalWindow().release(n));

    private volatile PortForward forward;
    private volatile SessionLog.Open log;

    private PodForwardChannel(SshEntries entries, PodTunnels tunnels) {
        super("direct-tcpip", List.of(), null);
        this.entries = entries;
        this.tunnels = tunnels;
    }

    @Override
    protected OpenFuture doInit(Buffer buffer) {
        String host = buffer.getString();
        int port = buffer.getInt();
        DefaultOpenFuture f = new DefaultOpenFuture(this, new Object());
        SshEntries.Entry entry = entries.of(getSession());
        String refusal = entry == null
                ? "no job was named"
                : entry.refusal() != null
                        ? entry.refusal()
                        : !LOOPBACK.contains(host)
                                ? "Crater forwards only to localhost inside your job's pod (through the Kubernetes"
                                        + " port-forward API), not to " + host
                                : port < 1 || port > 65535 ? "no port " + port : null;
        if (refusal != null) {
            f.setException(new SshChannelOpenException(
                    getChannelId(), SshConstants.SSH_OPEN_ADMINISTRATIVELY_PROHIBITED, refusal));
            return f;
        }
        log = entry.log();
        OutputStream toClient =
                new ChannelOutputStream(this, getRemoteWindow(), LOG, SshConstants.SSH_MSG_CHANNEL_DATA, true);
        try {
            forward = tunnels.open(entry.target(), port, inbound, new ToClient(toClient));
            signalChannelOpenSuccess(); // the listener this signals sends the open confirmation
            f.setOpened();
        } catch (RuntimeException | IOException e) {
            f.setException(new SshChannelOpenException(
                    getChannelId(), SshConstants.SSH_OPEN_CONNECT_FAILED, "port-forward failed: " + e.getMessage()));
        }
        return f;
    }

    @Override
    protected void doWriteData(byte[] data, int off, long len) {
        // The client's window bounds what can queue here; it is released as the port-forward reads.
        inbound.add(ByteBuffer.wrap(data.clone(), off, (int) len));
        SessionLog.Open l = log;
        if (l != null) {
            l.in.addAndGet(len);
        }
    }

    @Override
    protected void doWriteExtendedData(byte[] data, int off, long len) throws IOException {
        throw new IOException("direct-tcpip carries no extended data");
    }

    @Override
    public void handleEof() throws IOException {
        super.handleEof();
        inbound.end();
    }

    @Override
    protected void preClose() {
        inbound.end();
        PortForward f = forward;
        if (f != null) {
            try {
                f.close();
            } catch (IOException e) {
                LOG.debug("closing a port-forward failed", e);
            }
        }
        super.preClose();
    }

    /** The pod's bytes, written to the client within its window. */
    private final class ToClient implements WritableByteChannel {
        private final OutputStream out;
        private volatile boolean open = true;

        ToClient(OutputStream out) {
            this.out = out;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            int n = src.remaining();
            byte[] bytes = new byte[n];
            src.get(bytes);
            out.write(bytes);
            out.flush();
            SessionLog.Open l = log;
            if (l != null) {
                l.out.addAndGet(n);
            }
            return n;
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void close() throws IOException {
            if (open) {
                open = false;
                PortForward f = forward;
                if (f != null && f.errorOccurred()) {
                    // The port-forward failed rather than ended: the client sees only the channel closing.
                    LOG.warn(
                            "port-forward ended by an error: client side {}, server side {}",
                            f.getClientThrowables(),
                            f.getServerThrowables());
                }
                // The pod's side ended: so does the channel.
                PodForwardChannel.this.close(false);
            }
        }
    }
}
