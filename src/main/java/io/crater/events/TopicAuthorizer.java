package io.crater.events;

import io.crater.identity.TokenService.TokenUser;
import io.smallrye.mutiny.Uni;

/**
 * Decides who may subscribe to a family of topics of the events stream. Features provide one per family
 * ({@code nodes}; {@code jobs}, {@code jobs:<account>}, {@code job:<id>}); each event is filtered again by its
 * own rule when it is sent.
 */
public interface TopicAuthorizer {

    /** Whether this authorizer knows the topic. */
    boolean handles(String topic);

    /** Completes when the user may subscribe; fails with a 403 or 404 problem otherwise. */
    Uni<Void> authorize(String topic, TokenUser user);

    /** Topic names for messages (e.g. {@code job:<id>}). */
    String describe();
}
