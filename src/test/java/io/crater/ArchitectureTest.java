package io.crater;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The layering the design relies on, enforced by the build. */
class ArchitectureTest {

    static final JavaClasses CRATER = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.crater");

    @Test
    void policyIsPureJava() {
        noClasses()
                .that()
                .resideInAPackage("io.crater.policy..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.quarkus..",
                        "io.smallrye..",
                        "io.fabric8..",
                        "jakarta..",
                        "javax..",
                        "org.hibernate..",
                        "io.vertx..",
                        "org.jboss..")
                .because("policy decides from immutable snapshots and must be testable without any framework")
                .check(CRATER);
    }

    @Test
    void policyDependsOnNoOtherCraterPackage() {
        noClasses()
                .that()
                .resideInAPackage("io.crater.policy..")
                .should()
                .dependOnClassesThat()
                .resideOutsideOfPackages("io.crater.policy..", "java..")
                .check(CRATER);
    }

    @Test
    void theClientUsesOnlyTheJdkPicocliJacksonCoreAndSnakeYaml() {
        noClasses()
                .that()
                .resideInAPackage("io.crater.cli..")
                .should()
                .dependOnClassesThat()
                .resideOutsideOfPackages(
                        "io.crater.cli..",
                        "java..",
                        "javax.net..",
                        "com.sun.net.httpserver..",
                        "picocli..",
                        "com.fasterxml.jackson.core..",
                        "org.yaml.snakeyaml..")
                .because("the client is shipped alone (target/quarkus-app/cli/crater.jar) and must start fast")
                .check(CRATER);
        noClasses()
                .that()
                .resideOutsideOfPackage("io.crater.cli..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.crater.cli..")
                .because("the server never runs client code; the client calls only the public API")
                .check(CRATER);
    }

    @Test
    void resourcesNeverTouchRepositoriesOrTheKubernetesClient() {
        noClasses()
                .that()
                .haveSimpleNameEndingWith("Resource")
                .should()
                .dependOnClassesThat()
                .haveSimpleNameEndingWith("Repository")
                .orShould()
                .dependOnClassesThat()
                .resideInAPackage("io.fabric8.kubernetes.client..")
                .because("resources call services; services own transactions and cluster calls")
                .check(CRATER);
    }

    @Test
    void admissionSitsAboveJobs() {
        noClasses()
                .that()
                .resideInAnyPackage("io.crater.job..", "io.crater.account..", "io.crater.cluster..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.crater.admission..")
                .because("admission decides over jobs, quotas and nodes; they wake it through NOTIFY, never by a call")
                .check(CRATER);
    }

    @Test
    void admissionReachesJobsOnlyThroughTheirAdmissionSeam() {
        noClasses()
                .that()
                .resideInAPackage("io.crater.admission..")
                .should()
                .dependOnClassesThat(JavaClass.Predicates.resideInAPackage("io.crater.job..")
                        .and(DescribedPredicate.not(JavaClass.Predicates.belongToAnyOf(
                                io.crater.job.JobAdmissions.class,
                                io.crater.job.JobsConfig.class,
                                io.crater.job.TimeLimitService.class))))
                .because("the jobs tables are the job feature's: admission reads and writes them through JobAdmissions")
                .check(CRATER);
    }

    @Test
    void featuresDependOnEachOtherWithoutCycles() {
        slices().matching("io.crater.(*)..").should().beFreeOfCycles().check(CRATER);
    }

    @Test
    void onlyTheBootWiringStartsTheSimulatedCluster() {
        noClasses()
                .that()
                .resideOutsideOfPackages("io.crater.boot..", "io.crater.sim..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.crater.sim..")
                .because("the product reaches the simulated cluster only through the Kubernetes API, as it would a real"
                        + " one; only the start-up wiring starts it and hands its GPU samples to idle detection")
                .check(CRATER);
    }

    @Test
    void theSimulatedClusterUsesNothingOfTheProduct() {
        noClasses()
                .that()
                .resideInAPackage("io.crater.sim..")
                .should()
                .dependOnClassesThat(JavaClass.Predicates.resideInAPackage("io.crater..")
                        .and(DescribedPredicate.not(JavaClass.Predicates.resideInAnyPackage(
                                "io.crater.sim..", "io.crater.kube..", "io.crater.volcano.."))))
                .because("it plays a cluster Crater is tested against, so it must not share Crater's decisions"
                        + " (placement, quotas) or names; it shares only the Kubernetes helpers of io.crater.kube and,"
                        + " since it plays Volcano's controllers, the typed Volcano CRD models of io.crater.volcano")
                .check(CRATER);
    }

    @Test
    void theSimulatedApiServerKnowsNothingOfTheClusterPlayingBehindIt() {
        noClasses()
                .that()
                .resideInAPackage("io.crater.sim.apiserver..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.crater.sim.cluster..", "io.crater.sim")
                .because("it serves the Kubernetes API as a real API server does; the pods' logs, shells and ports it"
                        + " serves come through its own small interfaces (PodLogSource, PodExec, PodPortTargets) that"
                        + " sim.cluster implements")
                .check(CRATER);
    }

    @Test
    void theSimulatedClusterPlaysBehindTheApiServerWithoutReachingItsFacade() {
        noClasses()
                .that()
                .resideInAPackage("io.crater.sim.cluster..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.crater.sim")
                .because("io.crater.sim.Simulator wires the API server and the cluster together for the boot wiring;"
                        + " the cluster depends only on sim.apiserver's interfaces, so the packages form no cycle")
                .check(CRATER);
    }

    @Test
    void theSimulatorsPackagesHaveNoCycle() {
        slices().matching("io.crater.sim.(**)").should().beFreeOfCycles().check(CRATER);
    }

    @Test
    void theKubernetesHelpersAndVolcanoModelsImportNoFeature() {
        noClasses()
                .that()
                .resideInAnyPackage("io.crater.kube..", "io.crater.volcano..")
                .should()
                .dependOnClassesThat(JavaClass.Predicates.resideInAPackage("io.crater..")
                        .and(DescribedPredicate.not(
                                JavaClass.Predicates.resideInAnyPackage("io.crater.kube..", "io.crater.volcano.."))))
                .because("the simulated cluster and the product both use them: through them neither may reach the"
                        + " other")
                .check(CRATER);
    }

    @Test
    void identityAndPlatformRecordThroughTheAuditTrailInterface() {
        noClasses()
                .that()
                .resideInAnyPackage("io.crater.identity..", "io.crater.platform..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.crater.audit..", "io.crater.account..")
                .because("audit and account sit above identity: identity records through platform.AuditTrail and"
                        + " announces new users through UserCreated")
                .check(CRATER);
    }

    @Test
    void resourcesRunNoSql() {
        noClasses()
                .that()
                .haveSimpleNameEndingWith("Resource")
                .should()
                .dependOnClassesThat()
                .belongToAnyOf(io.crater.platform.Sql.class, org.hibernate.reactive.mutiny.Mutiny.Session.class)
                .because("a resource calls its feature's service or queries; SQL lives with the tables' owner")
                .check(CRATER);
    }
}
