package io.crater.files;

import io.crater.account.SpacePayers;
import io.crater.platform.OnContext;
import io.quarkus.hibernate.reactive.panache.Panache;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What each account's and user's space holds, with who pays for it, for storage charges (docs/accounting.md,
 * "Storage"). The bytes are the file API's usage of the space (walked at most every {@code crater.files.usage-for}).
 * The public space is the platform's and is not listed; a space never written has no folder and holds nothing.
 */
@ApplicationScoped
public class SpaceHoldings {

    @Inject
    FilesConfig config;

    @Inject
    SpaceUsage usage;

    @Inject
    SpacePayers payers;

    /** A space, its payer (the user too for a user's own space) and the bytes of its regular files. */
    public record Held(String space, long accountId, Long userId, long bytes) {}

    /** Blocking (walks the spaces): every space that has a folder. */
    public List<Held> measure() {
        List<SpacePayers.SpacePayer> all =
                OnContext.run(() -> Panache.withSession(payers::all)).await().indefinitely();
        List<Held> out = new ArrayList<>();
        for (SpacePayers.SpacePayer p : all) {
            Path root = config.spacesRoot().resolve(p.folder());
            if (Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
                out.add(new Held(
                        p.space(),
                        p.accountId(),
                        p.userId(),
                        usage.of(p.space(), root).bytes()));
            }
        }
        return out;
    }
}
