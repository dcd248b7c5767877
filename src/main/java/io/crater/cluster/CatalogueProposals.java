package io.crater.cluster;

import io.crater.identity.Caller;
import io.crater.kube.KubeQuantities;
import io.crater.platform.ApiException;
import io.crater.policy.CatalogueSync;
import io.fabric8.kubernetes.api.model.Node;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The models the nodes publish and the catalogue lacks ({@link CatalogueSync} over the informers' nodes). */
@ApplicationScoped
public class CatalogueProposals {

    /** A proposal as the API shows it. */
    @Schema(name = "ModelProposal")
    public record Proposal(
            String key,
            String resource,
            String labelKey,
            String labelValue,
            String displayName,
            String vendor,
            Long memoryMiB,
            String memoryResource,
            List<String> nodes,
            long count) {}

    /** What an admin may change of a proposal while accepting it (null: as proposed). */
    @Schema(name = "AcceptProposal")
    public record Accept(String key, String displayName, String vendor, Boolean restricted) {}

    @Inject
    ClusterCache cache;

    @Inject
    AcceleratorCatalogue catalogue;

    @Inject
    CatalogueService edits;

    /** The sync over the nodes Crater sees now. */
    CatalogueSync.Result sync() {
        return CatalogueSync.of(
                cache.nodes().stream().map(CatalogueProposals::facts).toList(), catalogue.syncEntries());
    }

    static CatalogueSync.NodeFacts facts(Node node) {
        Map<String, Long> whole = new LinkedHashMap<>();
        KubeQuantities.amounts(
                        node.getStatus() == null ? null : node.getStatus().getAllocatable())
                .forEach((resource, milli) -> whole.put(resource, milli / 1000));
        return new CatalogueSync.NodeFacts(
                node.getMetadata().getName(),
                whole,
                Objects.requireNonNullElse(node.getMetadata().getLabels(), Map.of()));
    }

    public List<Proposal> list(Caller caller) {
        CatalogueService.requireAdmin(caller);
        return sync().proposals().stream().map(CatalogueProposals::view).toList();
    }

    private static Proposal view(CatalogueSync.Proposal p) {
        return new Proposal(
                p.key(),
                p.resource(),
                p.labelKey(),
                p.labelValue(),
                p.displayName(),
                p.vendor(),
                p.memoryMiB(),
                p.memoryResource(),
                p.nodes(),
                p.count());
    }

    /** Adds the proposal of this key to the catalogue, as proposed or with the names given. */
    public Uni<AcceleratorModel> accept(String key, Accept req, Caller caller) {
        CatalogueService.requireAdmin(caller);
        CatalogueSync.Proposal p = sync().proposals().stream()
                .filter(x -> x.key().equals(key))
                .findFirst()
                .orElseThrow(() -> ApiException.notFound(
                        "no proposal '" + key + "': the nodes publish nothing the catalogue lacks under that key"));
        Accept given = req == null ? new Accept(null, null, null, null) : req;
        return edits.add(
                new CatalogueService.NewModel(
                        given.key() == null ? p.key() : given.key(),
                        p.resource(),
                        p.labelKey(),
                        p.labelValue(),
                        given.displayName() == null ? p.displayName() : given.displayName(),
                        given.vendor() == null ? p.vendor() : given.vendor(),
                        p.memoryMiB(),
                        p.memoryResource(),
                        given.restricted()),
                caller);
    }
}
