package io.crater.events;

import io.crater.identity.TokenService.TokenUser;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.subscription.MultiEmitter;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * Server events for the console's one stream per tab. Every event has an increasing id and a visibility rule;
 * the last events are kept so a client reconnecting with {@code Last-Event-ID} gets what it missed, or a
 * {@code reset} when it missed more than is kept.
 */
@ApplicationScoped
public class EventHub {

    /** One event: its id, the topics it belongs to, SSE event name, JSON data, and who may see it. */
    public record HubEvent(long id, Set<String> topics, String name, Object data, Predicate<TokenUser> visibleTo) {}

    static final int KEPT = 4096;

    private final Deque<HubEvent> recent = new ArrayDeque<>();
    private final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();
    private long lastId;

    private record Subscriber(Set<String> topics, TokenUser viewer, MultiEmitter<? super HubEvent> emitter) {
        void offer(HubEvent e) {
            if (e.topics().stream().anyMatch(topics::contains) && e.visibleTo().test(viewer)) {
                emitter.emit(e);
            }
        }
    }

    public void publish(String topic, String name, Object data, Predicate<TokenUser> visibleTo) {
        publish(Set.of(topic), name, data, visibleTo);
    }

    /** Publishes one event under several topics (e.g. {@code jobs}, {@code jobs:<account>}, {@code job:<id>}). */
    public void publish(Set<String> topics, String name, Object data, Predicate<TokenUser> visibleTo) {
        synchronized (this) {
            HubEvent e = new HubEvent(++lastId, topics, name, data, visibleTo);
            recent.addLast(e);
            if (recent.size() > KEPT) {
                recent.removeFirst();
            }
            subscribers.forEach(s -> s.offer(e));
        }
    }

    /**
     * The events of {@code topics} the viewer may see: first those after {@code lastEventId} (when given), then
     * new ones as they happen. A {@code reset} event (id of the newest, no data) comes first when the events
     * after {@code lastEventId} are no longer kept.
     */
    public Multi<HubEvent> stream(Set<String> topics, TokenUser viewer, Long lastEventId) {
        return Multi.createFrom().emitter(emitter -> {
            Subscriber s = new Subscriber(topics, viewer, emitter);
            synchronized (this) {
                if (lastEventId != null) {
                    long oldest =
                            recent.isEmpty() ? lastId + 1 : recent.peekFirst().id();
                    if (lastEventId + 1 < oldest || lastEventId > lastId) {
                        emitter.emit(new HubEvent(lastId, Set.of("*"), "reset", null, u -> true));
                    } else {
                        List<HubEvent> missed = new ArrayList<>();
                        recent.forEach(e -> {
                            if (e.id() > lastEventId) {
                                missed.add(e);
                            }
                        });
                        missed.forEach(s::offer);
                    }
                }
                subscribers.add(s);
            }
            emitter.onTermination(() -> subscribers.remove(s));
        });
    }

    int subscriberCount() {
        return subscribers.size();
    }
}
