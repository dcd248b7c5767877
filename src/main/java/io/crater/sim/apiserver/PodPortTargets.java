package io.crater.sim.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Future;
import io.vertx.core.net.NetSocket;

/**
 * What a pod's forwarded port reaches ({@code pods/{name}/portforward}), decided by what plays the pods. It is told
 * of each open session, so it can end the pod's forwarded connections when the pod goes.
 */
public interface PodPortTargets {

    /** Connects to what the pod's port reaches, on the caller's Vert.x context; fails when nothing listens there. */
    Future<NetSocket> connect(JsonNode pod, int port);

    void opened(String namespace, String pod, Session session);

    void closed(String namespace, String pod, Session session);

    /** An open port-forward session ({@link PortForwardSession}, {@link SpdyPortForwardSession}). */
    interface Session {
        /** Ends the session from the pod's side, as a stopped container does. */
        void close();
    }
}
