package io.crater.sim.cluster;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.Map;

/**
 * Records core/v1 Events as Kubernetes components do: one Event per object, reason and message, its count
 * raised when the same thing happens again.
 */
final class SimEvents {

    private final KubernetesClient client;
    private final Clock clock;
    private final Map<String, String> lastMessage = new HashMap<>();
    private final Map<String, java.time.Instant> lastTime = new HashMap<>();
    private static final java.time.Duration REPEAT_EVERY = java.time.Duration.ofSeconds(30);

    SimEvents(KubernetesClient client, Clock clock) {
        this.client = client;
        this.clock = clock;
    }

    /** Records an event; a repeat of the last message for the same object and reason only bumps its count. */
    void record(HasMetadata object, String type, String reason, String message, String component) {
        String uid = object.getMetadata().getUid();
        String key = uid + "/" + reason;
        String name = object.getMetadata().getName() + "." + Integer.toHexString(key.hashCode() & 0x7fffffff);
        String ns = object.getMetadata().getNamespace();
        String now = DateTimeFormatter.ISO_INSTANT.format(
                clock.instant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
        boolean repeat = message.equals(lastMessage.get(key));
        if (repeat) {
            java.time.Instant last = lastTime.get(key);
            if (last != null && clock.instant().isBefore(last.plus(REPEAT_EVERY))) {
                return;
            }
        }
        lastMessage.put(key, message);
        lastTime.put(key, clock.instant());
        // Sent in the background: an event is best effort, as in Kubernetes, and never holds up the tick.
        SimWrites.background(() -> send(object, type, reason, message, component, uid, name, ns, now, repeat));
    }

    private void send(
            HasMetadata object,
            String type,
            String reason,
            String message,
            String component,
            String uid,
            String name,
            String ns,
            String now,
            boolean repeat) {
        try {
            if (repeat) {
                Event existing =
                        client.v1().events().inNamespace(ns).withName(name).get();
                if (existing != null) {
                    existing.setCount(existing.getCount() == null ? 2 : existing.getCount() + 1);
                    existing.setLastTimestamp(now);
                    client.v1().events().inNamespace(ns).resource(existing).update();
                    return;
                }
            }
            Event event = new EventBuilder()
                    .withNewMetadata()
                    .withName(name)
                    .withNamespace(ns)
                    .endMetadata()
                    .withNewInvolvedObject()
                    .withApiVersion(object.getApiVersion())
                    .withKind(object.getKind())
                    .withName(object.getMetadata().getName())
                    .withNamespace(ns)
                    .withUid(uid)
                    .endInvolvedObject()
                    .withType(type)
                    .withReason(reason)
                    .withMessage(message)
                    .withCount(1)
                    .withFirstTimestamp(now)
                    .withLastTimestamp(now)
                    .withNewSource()
                    .withComponent(component)
                    .endSource()
                    .withReportingComponent(component)
                    .build();
            client.v1().events().inNamespace(ns).resource(event).createOr(e -> e.update());
        } catch (KubernetesClientException e) {
            // An event is best effort, as in Kubernetes: losing one never blocks scheduling.
        }
    }

    java.time.Instant now() {
        return clock.instant();
    }

    void forget(String uid) {
        lastMessage.keySet().removeIf(k -> k.startsWith(uid + "/"));
        lastTime.keySet().removeIf(k -> k.startsWith(uid + "/"));
    }
}
