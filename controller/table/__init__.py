"""The table layer: the UID -> tile registry, enrollment, and scans -> presence -> moves."""

from controller.table.enroll import (
    Enrollment,
    EnrollmentProgress,
    RegistryFile,
    ScanLike,
    Step,
    progress,
)
from controller.table.presence import PresenceTracker
from controller.table.registry import (
    REGISTRY_FILE,
    RegistryError,
    TileRegistry,
    normalize_uid,
)

__all__ = [
    "REGISTRY_FILE",
    "Enrollment",
    "EnrollmentProgress",
    "PresenceTracker",
    "RegistryError",
    "RegistryFile",
    "ScanLike",
    "Step",
    "TileRegistry",
    "normalize_uid",
    "progress",
]
