package io.crater.sim.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.spdy.DefaultSpdyDataFrame;
import io.netty.handler.codec.spdy.DefaultSpdyPingFrame;
import io.netty.handler.codec.spdy.DefaultSpdyRstStreamFrame;
import io.netty.handler.codec.spdy.DefaultSpdySynReplyFrame;
import io.netty.handler.codec.spdy.SpdyDataFrame;
import io.netty.handler.codec.spdy.SpdyFrame;
import io.netty.handler.codec.spdy.SpdyFrameCodec;
import io.netty.handler.codec.spdy.SpdyGoAwayFrame;
import io.netty.handler.codec.spdy.SpdyPingFrame;
import io.netty.handler.codec.spdy.SpdyRstStreamFrame;
import io.netty.handler.codec.spdy.SpdyStreamStatus;
import io.netty.handler.codec.spdy.SpdySynStreamFrame;
import io.netty.handler.codec.spdy.SpdyVersion;
import io.netty.util.ReferenceCountUtil;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.net.NetSocket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * One {@code pods/portforward} session of a current kubectl: SPDY/3.1 tunnelled through a WebSocket
 * ({@code SPDY/3.1+portforward.k8s.io}, what kubectl 1.31+ asks for first), served as the kubelet serves
 * {@code portforward.k8s.io}. For each connection to its local port kubectl opens two streams with the same
 * {@code requestID} header, an error stream and a data stream, each naming the pod's {@code port}; every stream is
 * answered with a reply. Once both are open, the data stream is piped to one TCP connection to what
 * {@link PodPortTargets} says the port reaches; when nothing listens there, the kubelet's error text goes on the error
 * stream. When the pod's side ends, both streams end; when kubectl ends or resets the data stream, the connection
 * closes (as the container runtime does on the first side's end). Pings are echoed. SPDY's flow control is not
 * applied: kubectl's SPDY library applies none either. The frames and their compressed header blocks are coded by
 * Netty's SPDY codec, fed the WebSocket's binary messages as one byte stream.
 */
public final class SpdyPortForwardSession implements PodPortTargets.Session {

    /** The WebSocket subprotocol kubectl offers for SPDY tunnelled through a WebSocket. */
    static final String PROTOCOL = "SPDY/3.1+portforward.k8s.io";

    private static final Logger LOG = Logger.getLogger(SpdyPortForwardSession.class);
    /** The largest payload per data frame: a connection's reads are cut into frames no larger. */
    private static final int MAX_PAYLOAD = 32 * 1024;

    /** One forwarded connection: the pair of streams kubectl opened for it and, once connected, its socket. */
    private static final class Request {
        int port;
        int errorStream;
        int dataStream;
        NetSocket socket;
        /** What kubectl sent before the connection was made, and whether that included the stream's end. */
        final List<Buffer> pending = new ArrayList<>();

        boolean finished;
        boolean started;
        boolean ended;
    }

    private final ServerWebSocket ws;
    private final JsonNode pod;
    private final String namespace;
    private final String name;
    private final PodPortTargets targets;
    private final EmbeddedChannel codec = new EmbeddedChannel(new SpdyFrameCodec(SpdyVersion.SPDY_3_1));
    private final Map<String, Request> requests = new HashMap<>();
    private final Map<Integer, Request> byStream = new HashMap<>();

    private SpdyPortForwardSession(ServerWebSocket ws, JsonNode pod, PodPortTargets targets) {
        this.ws = ws;
        this.pod = pod;
        this.namespace = pod.path("metadata").path("namespace").asText();
        this.name = pod.path("metadata").path("name").asText();
        this.targets = targets;
    }

    /** Starts a session on an accepted WebSocket, on its Vert.x context, for a running pod. */
    static void start(ServerWebSocket ws, JsonNode pod, PodPortTargets targets) {
        SpdyPortForwardSession s = new SpdyPortForwardSession(ws, pod, targets);
        ws.binaryMessageHandler(s::bytes);
        ws.drainHandler(v -> s.requests.values().stream()
                .filter(r -> r.socket != null && !r.ended)
                .forEach(r -> r.socket.resume()));
        ws.closeHandler(v -> s.closed());
        ws.exceptionHandler(e -> LOG.debugf("port-forward to %s/%s: %s", s.namespace, s.name, e.getMessage()));
        targets.opened(s.namespace, s.name, s);
    }

    /** The client's bytes: decoded into SPDY frames and handled in order; a frame that cannot be decoded ends all. */
    private void bytes(Buffer data) {
        try {
            codec.writeInbound(Unpooled.wrappedBuffer(data.getBytes()));
            for (Object frame = codec.readInbound(); frame != null; frame = codec.readInbound()) {
                try {
                    frame((SpdyFrame) frame);
                } finally {
                    ReferenceCountUtil.release(frame);
                }
            }
            flush();
        } catch (RuntimeException e) {
            LOG.debugf("port-forward to %s/%s: %s", namespace, name, e);
            close();
        }
    }

    private void frame(SpdyFrame frame) {
        if (frame instanceof SpdySynStreamFrame syn) {
            opened(syn);
        } else if (frame instanceof SpdyDataFrame data) {
            data(data);
        } else if (frame instanceof SpdyRstStreamFrame rst) {
            Request r = byStream.get(rst.streamId());
            if (r != null) {
                end(r, false);
            }
        } else if (frame instanceof SpdyPingFrame ping) {
            codec.writeOutbound(new DefaultSpdyPingFrame(ping.id()));
        } else if (frame instanceof SpdyGoAwayFrame) {
            close();
        }
    }

    /**
     * A new stream: answered, then paired with the other stream of its request. Streams without a {@code requestID}
     * are paired as the kubelet pairs an old client's: an error stream with the data stream two ids further on.
     */
    private void opened(SpdySynStreamFrame syn) {
        int id = syn.streamId();
        DefaultSpdySynReplyFrame reply = new DefaultSpdySynReplyFrame(id);
        // Netty codes an empty header block as no bytes at all, which kubectl's decoder cannot read: send one back.
        reply.headers().set("streamtype", header(syn, "streamtype"));
        codec.writeOutbound(reply);
        String type = header(syn, "streamtype");
        int port = parsePort(header(syn, "port"));
        if (port < 0 || !(type.equals("data") || type.equals("error"))) {
            codec.writeOutbound(new DefaultSpdyRstStreamFrame(id, SpdyStreamStatus.PROTOCOL_ERROR));
            return;
        }
        String requestId = header(syn, "requestid");
        if (requestId.isEmpty()) {
            requestId = Integer.toString(type.equals("error") ? id : id - 2);
        }
        Request r = requests.computeIfAbsent(requestId, k -> new Request());
        r.port = port;
        if (type.equals("error")) {
            r.errorStream = id;
        } else {
            r.dataStream = id;
        }
        byStream.put(id, r);
        if (r.errorStream != 0 && r.dataStream != 0 && !r.started) {
            r.started = true;
            connect(r);
        }
    }

    private void connect(Request r) {
        targets.connect(pod, r.port).onComplete(ar -> {
            if (r.ended || ws.isClosed()) {
                if (ar.succeeded()) {
                    ar.result().close();
                }
                return;
            }
            if (ar.failed()) {
                send(
                        r.errorStream,
                        Buffer.buffer("error forwarding port " + r.port + " to pod " + name
                                + ", uid : failed to connect to localhost:" + r.port + " inside the pod"));
                end(r, true);
            } else {
                attach(r, ar.result());
            }
            flush();
        });
    }

    private void attach(Request r, NetSocket socket) {
        r.socket = socket;
        r.pending.forEach(socket::write);
        r.pending.clear();
        if (r.finished) {
            end(r, true);
            return;
        }
        socket.handler(data -> {
            send(r.dataStream, data);
            flush();
            if (ws.writeQueueFull()) {
                socket.pause();
            }
        });
        // The end, not the close: bytes read before the close may still wait in the paused socket.
        socket.endHandler(v -> {
            end(r, true);
            flush();
        });
        socket.exceptionHandler(e -> LOG.debugf("port-forward to %s/%s:%d: %s", namespace, name, r.port, e));
    }

    /**
     * Data from kubectl: written to the request's connection (kept until it is made: kubectl writes as soon as the
     * stream is answered); its last frame ends the connection once what came before is written.
     */
    private void data(SpdyDataFrame frame) {
        Request r = byStream.get(frame.streamId());
        if (r == null || r.ended || frame.streamId() != r.dataStream) {
            return;
        }
        if (frame.content().isReadable()) {
            Buffer bytes = Buffer.buffer(ByteBufUtil.getBytes(frame.content()));
            if (r.socket == null) {
                r.pending.add(bytes);
            } else {
                r.socket.write(bytes);
                if (r.socket.writeQueueFull()) {
                    ws.pause();
                    r.socket.drainHandler(v -> ws.resume());
                }
            }
        }
        if (frame.isLast()) {
            if (r.socket == null) {
                r.finished = true;
            } else {
                end(r, true);
            }
        }
    }

    /** The request is over: its connection closes and, unless kubectl reset them, both streams end. */
    private void end(Request r, boolean finish) {
        if (r.ended) {
            return;
        }
        r.ended = true;
        if (r.socket != null) {
            r.socket.end();
        }
        if (finish && !ws.isClosed()) {
            for (int stream : new int[] {r.errorStream, r.dataStream}) {
                if (stream != 0) {
                    DefaultSpdyDataFrame fin = new DefaultSpdyDataFrame(stream);
                    fin.setLast(true);
                    codec.writeOutbound(fin);
                }
            }
        }
        byStream.remove(r.errorStream);
        byStream.remove(r.dataStream);
        requests.values().remove(r);
    }

    private void send(int stream, Buffer payload) {
        for (int from = 0; from < payload.length(); from += MAX_PAYLOAD) {
            int length = Math.min(MAX_PAYLOAD, payload.length() - from);
            codec.writeOutbound(
                    new DefaultSpdyDataFrame(stream, Unpooled.wrappedBuffer(payload.getBytes(from, from + length))));
        }
    }

    /** Sends what the codec has encoded, one WebSocket message per frame. */
    private void flush() {
        for (ByteBuf out = codec.readOutbound(); out != null; out = codec.readOutbound()) {
            try {
                if (!ws.isClosed()) {
                    ws.writeBinaryMessage(Buffer.buffer(ByteBufUtil.getBytes(out)));
                }
            } finally {
                out.release();
            }
        }
    }

    /** Ends the session from the pod's side, as a stopped container does. */
    @Override
    public void close() {
        if (!ws.isClosed()) {
            ws.close();
        }
    }

    private void closed() {
        for (Request r : requests.values()) {
            r.ended = true;
            if (r.socket != null) {
                r.socket.close();
            }
        }
        requests.clear();
        byStream.clear();
        codec.finishAndReleaseAll();
        targets.closed(namespace, name, this);
    }

    private static String header(SpdySynStreamFrame syn, String name) {
        String value = syn.headers().getAsString(name);
        return value == null ? "" : value;
    }

    private static int parsePort(String value) {
        try {
            int port = Integer.parseInt(value);
            return port >= 1 && port <= 65535 ? port : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
