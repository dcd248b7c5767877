package io.crater.interactive;

import io.vertx.core.http.ServerWebSocket;

/** The WebSocket bridge between a browser and an app: frames both ways with back-pressure, closes passed on. */
final class AppWebSockets {

    private AppWebSockets() {}

    /**
     * Frames both ways, text as text and binary as binary, each side paused while the other's write queue is full (a
     * fast app never piles up frames for a slow browser, nor the other way); either side closing closes the other.
     */
    static void bridge(ServerWebSocket front, io.vertx.core.http.WebSocket back) {
        front.frameHandler(f -> {
            if (f.isClose()) {
                return; // passed on by closesAfterItsFrames, with its code and reason
            }
            back.writeFrame(f);
            if (back.writeQueueFull()) {
                front.pause();
            }
        });
        back.frameHandler(f -> {
            if (f.isClose()) {
                return;
            }
            front.writeFrame(f);
            if (front.writeQueueFull()) {
                back.pause();
            }
        });
        back.drainHandler(v -> front.resume());
        front.drainHandler(v -> back.resume());
        closesAfterItsFrames(front, back);
        closesAfterItsFrames(back, front);
        back.resume();
        front.exceptionHandler(e -> back.close());
        back.exceptionHandler(e -> front.close());
    }

    /**
     * Closes {@code other} when {@code side} ends: at its close frame, in order after the frames before it (which may
     * still wait while {@code side} is paused), or at once when its connection was lost without one.
     */
    private static void closesAfterItsFrames(
            io.vertx.core.http.WebSocketBase side, io.vertx.core.http.WebSocketBase other) {
        side.endHandler(v -> {
            Short code = side.closeStatusCode();
            if (code == null || code == 1005 || code == 1006) {
                other.close();
            } else {
                other.close(code, side.closeReason());
            }
        });
        side.closeHandler(v -> {
            Short code = side.closeStatusCode();
            if (code == null || code == 1006) {
                other.close();
            }
        });
    }
}
