/** Answers of the portfolio calls (`/asset-groups…`, `/users/me/asset-groups`), as the browser reads them. */

/** GET /asset-groups/{id}, and each item of GET /users/me/asset-groups. */
export interface AssetGroup {
  _id: string;
  name: string;
  description?: string;
  assetIds: string[];
}

/** An item of GET /asset-groups/{id}/assets: a site of the group with its floor area in m². */
export interface GroupAsset {
  _id: string;
  siteName: string;
  assetType?: string;
  status?: string;
  address?: { streetAddress?: string; locality?: string; postCode?: string };
  floorAreaM2: number | null;
}

/** An item of GET /asset-groups/{id}/search-assets: a site to pick, saying whether it is in the group. */
export interface AssetChoice {
  _id: string;
  siteName: string;
  addressString?: string;
  primaryImageUrl?: string | null;
  inGroup: boolean;
}
