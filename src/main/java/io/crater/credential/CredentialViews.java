package io.crater.credential;

import java.time.Instant;
import java.util.List;

/** What the credentials API takes and answers. Nothing it answers carries a value. */
public final class CredentialViews {

    private CredentialViews() {}

    /** A stored credential as its owner sees it: everything but the value. */
    public record Credential(
            String name,
            String kind,
            String host,
            String username,
            String description,
            Instant createdAt,
            Instant updatedAt,
            Instant lastUsedAt) {}

    /** Store a new credential. {@code host} and {@code username} belong to {@code registry} credentials. */
    public record CreateCredential(
            String name, String kind, String host, String username, String description, String value) {}

    /**
     * Replace a credential's value; {@code description}, {@code host} and {@code username} change only when
     * given.
     */
    public record ReplaceCredential(String value, String description, String host, String username) {}

    /** A list body. */
    public record Items(List<Credential> items) {}
}
