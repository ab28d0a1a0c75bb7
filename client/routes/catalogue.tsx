import { licensesScreen } from "../features/licenses/licenses-screen";
import { productsScreen } from "../features/products/products-screen";
import { shippingFormsScreen } from "../features/shipping-forms/shipping-forms-screen";
import { wikisScreen } from "../features/wikis/wikis-screen";
import { createSectionRoutes } from "./section-routes";

/** Products, licences, the wiki and shipping forms: the section pattern of spec section 2. */
export const catalogueRoutes = [
  ...createSectionRoutes("products", "product", productsScreen),
  ...createSectionRoutes("licenses", "license", licensesScreen),
  ...createSectionRoutes("my-wiki", "wiki", wikisScreen),
  ...createSectionRoutes("my-shipping-documents", "a-form", shippingFormsScreen),
];
