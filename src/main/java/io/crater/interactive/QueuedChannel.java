package io.crater.interactive;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Bytes handed over by one side (an SSH channel, a local socket) and read by a port-forward on a thread of its own:
 * a queue of buffers ending at {@link #end}. {@code taken} is told how many bytes each read took, so the giving
 * side can let more in (an SSH window released, a paused socket resumed).
 */
final class QueuedChannel implements ReadableByteChannel {

    /** What to do once a read took {@code n} bytes. */
    interface Taken {
        void bytes(int n) throws IOException;
    }

    private static final ByteBuffer END = ByteBuffer.allocate(0);
    private final LinkedBlockingQueue<ByteBuffer> queue = new LinkedBlockingQueue<>();
    private final Taken taken;
    private ByteBuffer current;
    private volatile boolean open = true;

    QueuedChannel(Taken taken) {
        this.taken = taken;
    }

    /** Hands bytes over (the buffer is kept: pass a copy). */
    void add(ByteBuffer bytes) {
        queue.add(bytes);
    }

    /** No more bytes come: a read after the last ones ends. */
    void end() {
        queue.add(END);
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        try {
            while (current == null || !current.hasRemaining()) {
                if (current == END) {
                    return -1;
                }
                current = queue.poll(1, TimeUnit.SECONDS);
                if (current == null && !open) {
                    return -1;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
        if (current == END) {
            return -1;
        }
        int n = Math.min(dst.remaining(), current.remaining());
        ByteBuffer slice = current.duplicate();
        slice.limit(slice.position() + n);
        dst.put(slice);
        current.position(current.position() + n);
        taken.bytes(n);
        return n;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() {
        open = false;
    }
}
