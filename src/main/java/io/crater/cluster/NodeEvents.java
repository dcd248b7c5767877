package io.crater.cluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.crater.events.EventHub;
import io.crater.events.EventLog;
import io.crater.events.LoggedEvents;
import io.crater.identity.CurrentUser;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Set;

/**
 * Node changes on the events stream, through the event log so that every replica gives them the same ids: the
 * cluster cache writes each coalesced change with the view its informers see, and every replica publishes the
 * rows it reads as {@code node} events on the {@code nodes} topic, for platform admins.
 */
@ApplicationScoped
public class NodeEvents implements LoggedEvents {

    @Inject
    EventLog log;

    @Inject
    EventHub hub;

    @Inject
    ObjectMapper json;

    @Override
    public String kind() {
        return "node";
    }

    /** Writes the changes in one transaction. */
    void write(List<ClusterViews.NodeEvent> changes) throws Throwable {
        if (changes.isEmpty()) {
            return;
        }
        VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> {
            Uni<Void> chain = Uni.createFrom().voidItem();
            for (ClusterViews.NodeEvent e : changes) {
                String data = text(e);
                chain = chain.flatMap(v -> log.append(kind(), e.node().name(), data));
            }
            return chain;
        }));
    }

    @Override
    public void publish(List<Entry> entries) throws Throwable {
        for (Entry e : entries) {
            hub.publish(e.position(), Set.of("nodes"), "node", json.readTree(e.data()), CurrentUser::isAdmin);
        }
    }

    private String text(ClusterViews.NodeEvent e) {
        try {
            return json.writeValueAsString(e);
        } catch (JsonProcessingException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
