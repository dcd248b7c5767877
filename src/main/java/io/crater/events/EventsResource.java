package io.crater.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.crater.identity.CurrentUser;
import io.crater.identity.TokenService.TokenUser;
import io.crater.platform.ApiException;
import io.crater.platform.OnContext;
import io.quarkus.security.Authenticated;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Multi;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.ResponseHeader;

/**
 * One multiplexed Server-Sent Events stream per console tab: {@code GET /api/v1/events?topics=nodes,...}.
 * Events carry their position in the event log as id ({@code <xid>-<seq>}, the same on every replica);
 * reconnecting with {@code Last-Event-ID}, to any replica, replays what was missed. A comment line every
 * 20 seconds keeps proxies from closing an idle stream.
 */
@Path("/api/v1/events")
@Tag(name = "events")
@Authenticated
public class EventsResource {

    static final Duration HEARTBEAT = Duration.ofSeconds(20);

    @Inject
    EventHub hub;

    @Inject
    CurrentUser current;

    @Inject
    SecurityIdentity identity;

    @Inject
    ObjectMapper json;

    /** Who may subscribe to each family of topics; events are also filtered one by one by their own rule. */
    @Inject
    Instance<TopicAuthorizer> authorizers;

    /**
     * Blocking on purpose: topic rights (which may need the database) are settled before the first byte, so a
     * refusal is a real 403/404 and not a stream that ends at once.
     */
    @GET
    @Blocking
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @ResponseHeader(name = "X-Accel-Buffering", value = "no")
    @ResponseHeader(name = "Cache-Control", value = "no-cache")
    @Operation(
            summary =
                    "Live events of the given topics (comma-separated): nodes (platform admins), jobs, jobs:<account>, job:<id>")
    public Multi<OutboundSseEvent> events(
            @QueryParam("topics") String topics, @HeaderParam("Last-Event-ID") String lastEventId, @Context Sse sse) {
        Map<String, TopicAuthorizer> wanted = parseTopics(topics);
        boolean resuming = lastEventId != null && !lastEventId.isBlank();
        EventPosition last = resuming ? EventPosition.parse(lastEventId) : null;
        TokenUser user = current.userOf(identity);
        wanted.forEach(
                (t, a) -> OnContext.run(() -> a.authorize(t, user)).await().indefinitely());
        Multi<OutboundSseEvent> events = hub.stream(wanted.keySet(), user, last, resuming && last == null)
                .map(e -> toSse(sse, e));
        Multi<OutboundSseEvent> heartbeats = Multi.createFrom()
                .ticks()
                .every(HEARTBEAT)
                .map(tick -> sse.newEventBuilder().comment("heartbeat").build());
        return Multi.createBy().merging().streams(events, heartbeats);
    }

    private OutboundSseEvent toSse(Sse sse, EventHub.HubEvent e) {
        try {
            return sse.newEventBuilder()
                    .id(e.position().id())
                    .name(e.name())
                    .mediaType(MediaType.APPLICATION_JSON_TYPE)
                    .data(String.class, e.data() == null ? "{}" : json.writeValueAsString(e.data()))
                    .build();
        } catch (JsonProcessingException ex) {
            throw new IllegalStateException(ex);
        }
    }

    Map<String, TopicAuthorizer> parseTopics(String topics) {
        String known =
                authorizers.stream().map(TopicAuthorizer::describe).sorted().collect(Collectors.joining(", "));
        if (topics == null || topics.isBlank()) {
            throw ApiException.badRequest("InvalidTopics", "name at least one topic: " + known, null);
        }
        Map<String, TopicAuthorizer> wanted = new LinkedHashMap<>();
        for (String t : Arrays.stream(topics.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList()) {
            TopicAuthorizer a = authorizers.stream()
                    .filter(x -> x.handles(t))
                    .findFirst()
                    .orElseThrow(() -> ApiException.badRequest(
                            "InvalidTopics", "unknown topic '" + t + "'; known: " + known, null));
            wanted.put(t, a);
        }
        if (wanted.size() > 20) {
            throw ApiException.badRequest("InvalidTopics", "at most 20 topics per stream", null);
        }
        return wanted;
    }
}
