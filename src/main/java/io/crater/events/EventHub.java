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
 * Server events for the console's one stream per tab. Every event has its position in the event log as its id
 * ({@link EventLog}: the same on every replica) and a visibility rule; the last events are kept so a client
 * reconnecting with {@code Last-Event-ID}, to this replica or another, gets what it missed, or a {@code reset}
 * when it missed more than is kept.
 */
@ApplicationScoped
public class EventHub {

    /** One event: its position, the topics it belongs to, SSE event name, JSON data, and who may see it. */
    public record HubEvent(
            EventPosition position, Set<String> topics, String name, Object data, Predicate<TokenUser> visibleTo) {}

    static final int KEPT = 4096;

    private final Deque<HubEvent> recent = new ArrayDeque<>();
    private final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();
    /** Everything up to here is either kept or was never this replica's to know: a client from before it resets. */
    private EventPosition forgotten = new EventPosition(0, 0);

    private EventPosition last = forgotten;

    private record Subscriber(
            Set<String> topics, TokenUser viewer, EventPosition after, MultiEmitter<? super HubEvent> emitter) {
        void offer(HubEvent e) {
            if ((after == null || e.position().after(after))
                    && e.topics().stream().anyMatch(topics::contains)
                    && e.visibleTo().test(viewer)) {
                emitter.emit(e);
            }
        }
    }

    /** Where this replica starts reading the log: clients that resume from before it are told to reset. */
    synchronized void startAt(EventPosition start) {
        forgotten = start;
        last = start;
    }

    /**
     * Publishes one event under several topics (e.g. {@code jobs}, {@code jobs:<account>}, {@code job:<id>}), at
     * its position in the log; positions only grow.
     */
    public void publish(
            EventPosition at, Set<String> topics, String name, Object data, Predicate<TokenUser> visibleTo) {
        synchronized (this) {
            if (!at.after(last)) {
                return;
            }
            HubEvent e = new HubEvent(at, topics, name, data, visibleTo);
            last = at;
            recent.addLast(e);
            if (recent.size() > KEPT) {
                forgotten = recent.removeFirst().position();
            }
            subscribers.forEach(s -> s.offer(e));
        }
    }

    /**
     * The events of {@code topics} the viewer may see: first those after {@code after} (when given), then new
     * ones as they happen. A {@code reset} event (at the newest position, no data) comes first when the events
     * after {@code after} are no longer kept, or happened before this replica started reading. A position this
     * replica has not read yet (the client came from a replica that is ahead) is waited for.
     */
    public Multi<HubEvent> stream(Set<String> topics, TokenUser viewer, EventPosition after, boolean unreadable) {
        return Multi.createFrom().emitter(emitter -> {
            synchronized (this) {
                Subscriber s;
                if (unreadable || (after != null && after.compareTo(forgotten) < 0)) {
                    emitter.emit(new HubEvent(last, Set.of("*"), "reset", null, u -> true));
                    s = new Subscriber(topics, viewer, null, emitter);
                } else {
                    s = new Subscriber(topics, viewer, after, emitter);
                    if (after != null) {
                        List<HubEvent> missed = new ArrayList<>();
                        recent.forEach(e -> {
                            if (e.position().after(after)) {
                                missed.add(e);
                            }
                        });
                        missed.forEach(s::offer);
                    }
                }
                subscribers.add(s);
                emitter.onTermination(() -> subscribers.remove(s));
            }
        });
    }

    int subscriberCount() {
        return subscribers.size();
    }
}
