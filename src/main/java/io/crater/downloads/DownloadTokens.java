package io.crater.downloads;

import io.crater.credential.CredentialService;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;

/** A download's credential opened for a request to the hub (never for anything else). */
@ApplicationScoped
class DownloadTokens {

    @Inject
    CredentialService credentials;

    /** The owner's credential of this name, opened and marked used; empty without one. In a transaction. */
    Uni<Optional<String>> token(long ownerId, String name) {
        if (name == null) {
            return Uni.createFrom().item(Optional.empty());
        }
        return credentials.reveal(ownerId, List.of(name)).map(v -> Optional.ofNullable(v.get(name)));
    }
}
