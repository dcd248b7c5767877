package io.crater.sim.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.net.NetSocket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * One {@code pods/portforward} session, framed as the kubelet frames it over WebSocket ({@code v4.channel.k8s.io}):
 * for the i-th requested port, channel 2i carries data both ways and channel 2i+1 carries errors to the client.
 * Each channel first carries the port number as 2 bytes little-endian (fabric8 skips those first two frames);
 * after that every frame is the channel byte followed by payload. Each port is one TCP connection to what
 * {@link PodPortTargets} says the pod's port reaches; when nothing listens there, the kubelet's error text goes on the
 * port's error channel instead. Bytes stream through frame by frame, each side paused while the other's write
 * queue is full. The session ends when every port's connection has ended (the WebSocket then closes normally)
 * or when the client closes the WebSocket (the connections then close).
 */
public final class PortForwardSession implements PodPortTargets.Session {

    /** The subprotocols served: the kubelet's binary channel framing, which port-forward uses alike in both. */
    static final List<String> PROTOCOLS = List.of("v4.channel.k8s.io", "channel.k8s.io");

    private static final Logger LOG = Logger.getLogger(PortForwardSession.class);
    /** The largest payload per frame: a connection's reads are cut into frames no larger. */
    private static final int MAX_PAYLOAD = 32 * 1024;

    /** One forwarded port: its data channel (the error channel is the next one) and, once connected, its socket. */
    private static final class Stream {
        final int port;
        final int channel;
        NetSocket socket;
        boolean ended;

        Stream(int port, int channel) {
            this.port = port;
            this.channel = channel;
        }
    }

    private final ServerWebSocket ws;
    private final String namespace;
    private final String pod;
    private final PodPortTargets targets;
    private final List<Stream> streams = new ArrayList<>();
    private int connecting;

    private PortForwardSession(ServerWebSocket ws, String namespace, String pod, PodPortTargets targets) {
        this.ws = ws;
        this.namespace = namespace;
        this.pod = pod;
        this.targets = targets;
    }

    /** The {@code ports} query parameters (each a port or a comma-separated list), checked as the kubelet does. */
    static List<Integer> ports(List<String> values) {
        if (values.isEmpty()) {
            throw new ApiError(400, "BadRequest", "query parameter \"ports\" is required");
        }
        List<Integer> ports = new ArrayList<>();
        for (String value : values) {
            if (value.isEmpty()) {
                throw new ApiError(400, "BadRequest", "query parameter \"ports\" cannot be empty");
            }
            for (String p : value.split(",", -1)) {
                int port;
                try {
                    port = Integer.parseInt(p);
                } catch (NumberFormatException e) {
                    port = -1;
                }
                if (port < 1 || port > 65535) {
                    throw new ApiError(400, "BadRequest", "unable to parse \"" + value + "\" as a port in 1-65535");
                }
                ports.add(port);
            }
        }
        return ports;
    }

    /**
     * Refuses (400) a WebSocket request that offers subprotocols but none of {@link #PROTOCOLS}, as the kubelet does
     * (with none offered it frames as {@code v4.channel.k8s.io}). SPDY's {@code portforward.k8s.io} is not served.
     */
    static void checkProtocols(List<String> headerValues) {
        List<String> offered = new ArrayList<>();
        headerValues.forEach(h -> Arrays.stream(h.split(","))
                .map(String::trim)
                .filter(p -> !p.isEmpty())
                .forEach(offered::add));
        if (!offered.isEmpty() && offered.stream().noneMatch(PROTOCOLS::contains)) {
            throw new ApiError(
                    400,
                    "BadRequest",
                    "requested protocol(s) are not supported: " + offered + "; supported: " + PROTOCOLS);
        }
    }

    /** Starts a session on an accepted WebSocket, on its Vert.x context, for a running pod's ports. */
    static void start(ServerWebSocket ws, JsonNode pod, List<Integer> ports, PodPortTargets targets) {
        PortForwardSession s = new PortForwardSession(
                ws,
                pod.path("metadata").path("namespace").asText(),
                pod.path("metadata").path("name").asText(),
                targets);
        // Nothing the client sends can go anywhere before every port is connected (or refused).
        ws.pause();
        ws.binaryMessageHandler(s::frame);
        ws.textMessageHandler(t -> s.frame(Buffer.buffer(t)));
        ws.drainHandler(v ->
                s.streams.stream().filter(st -> st.socket != null && !st.ended).forEach(st -> st.socket.resume()));
        ws.closeHandler(v -> s.closed());
        ws.exceptionHandler(e -> LOG.debugf("port-forward to %s/%s: %s", s.namespace, s.pod, e.getMessage()));
        targets.opened(s.namespace, s.pod, s);
        for (int i = 0; i < ports.size(); i++) {
            Stream st = new Stream(ports.get(i), 2 * i);
            s.streams.add(st);
            Buffer port = Buffer.buffer(2).appendUnsignedShortLE(st.port);
            s.send(st.channel, port);
            s.send(st.channel + 1, port);
        }
        s.connecting = ports.size();
        for (Stream st : s.streams) {
            targets.connect(pod, st.port).onComplete(ar -> {
                if (ar.succeeded()) {
                    s.attach(st, ar.result());
                } else {
                    s.refuse(st);
                }
                if (--s.connecting == 0 && !ws.isClosed()) {
                    ws.resume();
                }
            });
        }
    }

    /** Ends the session from the pod's side, as a stopped container does. */
    @Override
    public void close() {
        if (!ws.isClosed()) {
            ws.close();
        }
    }

    private void attach(Stream st, NetSocket socket) {
        if (ws.isClosed()) {
            socket.close();
            return;
        }
        st.socket = socket;
        socket.handler(data -> {
            send(st.channel, data);
            if (ws.writeQueueFull()) {
                socket.pause();
            }
        });
        // The end, not the close: the close is reported at once, while bytes read before it may still wait in the
        // paused socket; the end comes after the last of them.
        socket.endHandler(v -> ended(st));
        socket.exceptionHandler(e -> LOG.debugf("port-forward to %s/%s:%d: %s", namespace, pod, st.port, e));
    }

    /** Nothing listens on the port: the kubelet's error on the port's error channel, and the port is done. */
    private void refuse(Stream st) {
        send(
                st.channel + 1,
                Buffer.buffer("error forwarding port " + st.port + " to pod " + pod
                        + ", uid : failed to connect to localhost:" + st.port + " inside the pod"));
        ended(st);
    }

    private void ended(Stream st) {
        st.ended = true;
        if (streams.stream().allMatch(s -> s.ended) && !ws.isClosed()) {
            ws.close();
        }
    }

    /** A frame from the client: data for a port's connection; anything else is ignored, as the kubelet does. */
    private void frame(Buffer frame) {
        if (frame.length() == 0) {
            return;
        }
        int channel = frame.getUnsignedByte(0);
        if (channel % 2 != 0 || channel / 2 >= streams.size()) {
            return;
        }
        Stream st = streams.get(channel / 2);
        if (st.socket == null || st.ended || frame.length() == 1) {
            return;
        }
        st.socket.write(frame.getBuffer(1, frame.length()));
        if (st.socket.writeQueueFull()) {
            ws.pause();
            st.socket.drainHandler(v -> ws.resume());
        }
    }

    private void send(int channel, Buffer payload) {
        for (int from = 0; from < payload.length() && !ws.isClosed(); from += MAX_PAYLOAD) {
            int length = Math.min(MAX_PAYLOAD, payload.length() - from);
            ws.writeBinaryMessage(
                    Buffer.buffer(length + 1).appendByte((byte) channel).appendBuffer(payload, from, length));
        }
    }

    private void closed() {
        for (Stream st : streams) {
            if (st.socket != null && !st.ended) {
                st.socket.close();
            }
        }
        targets.closed(namespace, pod, this);
    }
}
