package io.crater.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.crater.identity.CurrentUser;
import io.crater.identity.TokenService.TokenUser;
import io.crater.platform.ApiException;
import io.quarkus.security.Authenticated;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Multi;
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
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.ResponseHeader;

/**
 * One multiplexed Server-Sent Events stream per console tab: {@code GET /api/v1/events?topics=nodes,...}.
 * Events carry ids; reconnecting with {@code Last-Event-ID} replays what was missed. A comment line every
 * 20 seconds keeps proxies from closing an idle stream.
 */
@Path("/api/v1/events")
@Tag(name = "events")
@Authenticated
public class EventsResource {

    /** Who may subscribe to each topic; events are also filtered one by one by their own rule. */
    static final Map<String, Predicate<TokenUser>> TOPICS = Map.of("nodes", CurrentUser::isAdmin);

    static final Duration HEARTBEAT = Duration.ofSeconds(20);

    @Inject
    EventHub hub;

    @Inject
    CurrentUser current;

    @Inject
    SecurityIdentity identity;

    @Inject
    ObjectMapper json;

    @GET
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @ResponseHeader(name = "X-Accel-Buffering", value = "no")
    @ResponseHeader(name = "Cache-Control", value = "no-cache")
    @Operation(summary = "Live events of the given topics (comma-separated): nodes")
    public Multi<OutboundSseEvent> events(
            @QueryParam("topics") String topics, @HeaderParam("Last-Event-ID") String lastEventId, @Context Sse sse) {
        Set<String> wanted = parseTopics(topics);
        Long last = parseLastId(lastEventId);
        // @Authenticated resolved the identity before this method runs, so topic rights are checked before any byte is
        // sent.
        TokenUser user = current.userOf(identity);
        for (String t : wanted) {
            if (!TOPICS.get(t).test(user)) {
                throw ApiException.forbidden("TopicForbidden", "you may not subscribe to topic '" + t + "'");
            }
        }
        Multi<OutboundSseEvent> events = hub.stream(wanted, user, last).map(e -> toSse(sse, e));
        Multi<OutboundSseEvent> heartbeats = Multi.createFrom()
                .ticks()
                .every(HEARTBEAT)
                .map(tick -> sse.newEventBuilder().comment("heartbeat").build());
        return Multi.createBy().merging().streams(events, heartbeats);
    }

    private OutboundSseEvent toSse(Sse sse, EventHub.HubEvent e) {
        try {
            return sse.newEventBuilder()
                    .id(Long.toString(e.id()))
                    .name(e.name())
                    .mediaType(MediaType.APPLICATION_JSON_TYPE)
                    .data(String.class, e.data() == null ? "{}" : json.writeValueAsString(e.data()))
                    .build();
        } catch (JsonProcessingException ex) {
            throw new IllegalStateException(ex);
        }
    }

    static Set<String> parseTopics(String topics) {
        if (topics == null || topics.isBlank()) {
            throw ApiException.badRequest(
                    "InvalidTopics", "name at least one topic: ?topics=" + String.join(",", TOPICS.keySet()), null);
        }
        Set<String> wanted = new LinkedHashSet<>();
        for (String t : Arrays.stream(topics.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList()) {
            if (!TOPICS.containsKey(t)) {
                throw ApiException.badRequest(
                        "InvalidTopics",
                        "unknown topic '" + t + "'; known: " + String.join(",", TOPICS.keySet()),
                        null);
            }
            wanted.add(t);
        }
        return wanted;
    }

    private static Long parseLastId(String lastEventId) {
        if (lastEventId == null || lastEventId.isBlank()) {
            return null;
        }
        try {
            return Long.parseLong(lastEventId.trim());
        } catch (NumberFormatException e) {
            return -1L;
        }
    }
}
