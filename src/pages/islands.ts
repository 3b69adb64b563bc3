// The islands as the server places them: each component from islands/, marked for hydration under its file name.
import AvatarMenuComponent from "../../islands/AvatarMenu.tsx";
import PlanButtonComponent from "../../islands/PlanButton.tsx";
import ToasterComponent from "../../islands/Toaster.tsx";
import { island } from "./island.tsx";

export const AvatarMenu = island("AvatarMenu", AvatarMenuComponent);
export const PlanButton = island("PlanButton", PlanButtonComponent);
export const Toaster = island("Toaster", ToasterComponent);
