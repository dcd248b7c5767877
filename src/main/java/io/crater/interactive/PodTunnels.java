package io.crater.interactive;

import io.crater.job.PodAccess;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.PortForward;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Opens {@code pods/portforward} streams so that none loses its first frames. fabric8's Vert.x client installs its
 * WebSocket handlers in a callback registered after the connection is asked for; on a thread outside Vert.x, the
 * API server's first frames (the two port headers, which the client skips by count) can arrive before that
 * callback, and are dropped, so the client then skips the first data instead. Opened from a task on one of the
 * client's own event loops, the connection is served by that loop, which reads nothing until the task (and with it
 * the registration) is done.
 */
@ApplicationScoped
public class PodTunnels {

    /** Bytes read from a local socket and not yet taken by the port-forward before the socket is paused. */
    static final long HIGH_WATER = 1 << 20;

    @Inject
    Vertx vertx;

    @Inject
    KubernetesClient client;

    /** Opens a forward of {@code port} of the target's pod onto {@code in}/{@code out} (blocks up to 30 s). */
    public PortForward open(PodAccess.Target target, int port, ReadableByteChannel in, WritableByteChannel out)
            throws IOException {
        CompletableFuture<PortForward> opened = new CompletableFuture<>();
        Runnable task = () -> {
            try {
                opened.complete(open(target.namespace(), target.pod(), port, in, out));
            } catch (RuntimeException e) {
                opened.completeExceptionally(e);
            }
        };
        if (io.vertx.core.Context.isOnEventLoopThread()) {
            task.run();
        } else {
            vertx.getOrCreateContext().runOnContext(v -> task.run());
        }
        try {
            return opened.get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while opening a port-forward", e);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new IOException("port-forward failed: " + cause.getMessage(), cause);
        }
    }

    /** Opens a forward on the calling event loop (non-blocking: fabric8 returns at once and connects behind). */
    PortForward open(String namespace, String pod, int port, ReadableByteChannel in, WritableByteChannel out) {
        return client.pods().inNamespace(namespace).withName(pod).portForward(port, in, out);
    }

    /**
     * Serves one accepted local connection through a port-forward, on the connection's own event loop: the bytes
     * read from it go to the pod's port, the pod's answer is written back, and either side's end ends the other.
     */
    public void serve(NetSocket socket, String namespace, String pod, int port) {
        QueuedChannel in = socketIn(socket);
        SocketOut out = new SocketOut(socket);
        PortForward forward;
        try {
            forward = open(namespace, pod, port, in, out);
        } catch (RuntimeException e) {
            // The proxy sees the connection end and answers 502.
            socket.close();
            return;
        }
        socket.closeHandler(v -> {
            in.close();
            try {
                forward.close();
            } catch (IOException e) {
                // closing a forward that ended already
            }
        });
    }

    /** A local socket's bytes, as the port-forward reads them; the socket is paused while too many wait. */
    static QueuedChannel socketIn(NetSocket socket) {
        AtomicLong queued = new AtomicLong();
        QueuedChannel in = new QueuedChannel(n -> {
            if (queued.addAndGet(-n) < HIGH_WATER / 2) {
                socket.resume();
            }
        });
        socket.handler(b -> {
            in.add(ByteBuffer.wrap(b.getBytes()));
            if (queued.addAndGet(b.length()) > HIGH_WATER) {
                socket.pause();
            }
        });
        socket.endHandler(v -> in.end());
        return in;
    }

    /** The pod's bytes written to the local socket; a writer waits while the socket's write queue is full. */
    static final class SocketOut implements WritableByteChannel {
        private final NetSocket socket;
        private volatile boolean open = true;

        SocketOut(NetSocket socket) {
            this.socket = socket;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            if (!open) {
                throw new IOException("the local connection is closed");
            }
            int n = src.remaining();
            byte[] bytes = new byte[n];
            src.get(bytes);
            socket.write(Buffer.buffer(bytes));
            if (socket.writeQueueFull()) {
                CountDownLatch drained = new CountDownLatch(1);
                socket.drainHandler(v -> drained.countDown());
                if (socket.writeQueueFull()) {
                    try {
                        drained.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IOException("interrupted while the local connection drained", e);
                    }
                }
            }
            return n;
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void close() {
            if (open) {
                open = false;
                socket.close();
            }
        }
    }
}
