#include "core/hlo/hlo_sharding.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace systolic {

HloSharding HloSharding::Replicate() { return HloSharding(); }

HloSharding HloSharding::Manual() {
  HloSharding s;
  s.kind_ = Kind::kManual;
  return s;
}

HloSharding HloSharding::Unknown() {
  HloSharding s;
  s.kind_ = Kind::kUnknown;
  return s;
}

HloSharding HloSharding::AssignDevice(int64_t device) {
  HloSharding s;
  s.kind_ = Kind::kMaximal;
  s.device_ = device;
  return s;
}

HloSharding HloSharding::Tile(TileAssignment tiles, std::vector<SubgroupType> subgroups) {
  HloSharding s;
  s.kind_ = Kind::kTiled;
  s.tiles_ = std::move(tiles);
  s.subgroups_ = std::move(subgroups);
  return s;
}

HloSharding HloSharding::Tuple(std::vector<HloSharding> elements) {
  HloSharding s;
  s.kind_ = Kind::kTuple;
  s.elements_ = std::move(elements);
  return s;
}

bool HloSharding::ReplicateOnLastTileDim() const {
  return kind_ == Kind::kTiled && subgroups_.size() == 1 &&
         subgroups_[0] == SubgroupType::kReplicated;
}

int64_t HloSharding::TiledDataRank() const {
  return int64_t(tiles_.dimensions().size()) - int64_t(subgroups_.size());
}

namespace {

std::string MetadataSuffix(const std::vector<OpMetadata>& metadata) {
  if (metadata.empty()) return "";
  std::vector<std::string> parts;
  for (const OpMetadata& m : metadata) parts.push_back(absl::StrCat("{", m.ToString(), "}"));
  if (parts.size() == 1) return absl::StrCat(" metadata=", parts[0]);
  return absl::StrCat(" metadata={", absl::StrJoin(parts, ", "), "}");
}

}  // namespace

std::string HloSharding::ToString(bool include_metadata) const {
  if (kind_ == Kind::kTuple) {
    std::vector<std::string> parts;
    for (const HloSharding& e : elements_) parts.push_back(e.ToString(include_metadata));
    return absl::StrCat("{", absl::StrJoin(parts, ", "), "}");
  }
  std::string body;
  switch (kind_) {
    case Kind::kReplicated:
      body = "replicated";
      break;
    case Kind::kManual:
      body = "manual";
      break;
    case Kind::kUnknown:
      body = "unknown";
      break;
    case Kind::kMaximal:
      body = absl::StrCat("maximal device=", device_);
      break;
    case Kind::kTiled: {
      body = absl::StrCat("devices=", tiles_.ToString());
      if (ReplicateOnLastTileDim()) {
        body += " last_tile_dim_replicate";
      } else if (!subgroups_.empty()) {
        std::vector<std::string> names;
        for (SubgroupType t : subgroups_) {
          names.push_back(t == SubgroupType::kManual ? "manual" : "replicated");
        }
        absl::StrAppend(&body, " last_tile_dims={", absl::StrJoin(names, ", "), "}");
      }
      break;
    }
    case Kind::kTuple:
      break;
  }
  if (shard_group_id_) {
    absl::StrAppend(&body, shard_as_ ? " shard_as " : " shard_like ", *shard_group_id_);
  }
  if (include_metadata) body += MetadataSuffix(metadata_);
  return absl::StrCat("{", body, "}");
}

bool operator==(const HloSharding& a, const HloSharding& b) {
  return a.kind_ == b.kind_ && a.device_ == b.device_ && a.tiles_ == b.tiles_ &&
         a.subgroups_ == b.subgroups_ && a.elements_ == b.elements_ &&
         a.shard_group_id_ == b.shard_group_id_ && a.shard_as_ == b.shard_as_;
}

}  // namespace systolic
