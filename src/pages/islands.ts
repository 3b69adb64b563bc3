// The islands as the server places them: each component from islands/, marked for hydration under its file name.
import ApiTokensComponent from "../../islands/ApiTokens.tsx";
import AvatarMenuComponent from "../../islands/AvatarMenu.tsx";
import ConsentDialogComponent from "../../islands/ConsentDialog.tsx";
import CopyLinkButtonComponent from "../../islands/CopyLinkButton.tsx";
import DeleteLinkButtonComponent from "../../islands/DeleteLinkButton.tsx";
import LinkFormComponent from "../../islands/LinkForm.tsx";
import PaymentSuccessComponent from "../../islands/PaymentSuccess.tsx";
import PlanButtonComponent from "../../islands/PlanButton.tsx";
import SubscriptionCardComponent from "../../islands/SubscriptionCard.tsx";
import ToasterComponent from "../../islands/Toaster.tsx";
import VatExemptionComponent from "../../islands/VatExemption.tsx";
import YourDataComponent from "../../islands/YourData.tsx";
import { island } from "./island.tsx";

export const ApiTokens = island("ApiTokens", ApiTokensComponent);
export const AvatarMenu = island("AvatarMenu", AvatarMenuComponent);
export const ConsentDialog = island("ConsentDialog", ConsentDialogComponent);
export const CopyLinkButton = island("CopyLinkButton", CopyLinkButtonComponent);
export const DeleteLinkButton = island("DeleteLinkButton", DeleteLinkButtonComponent);
export const LinkForm = island("LinkForm", LinkFormComponent);
export const PaymentSuccess = island("PaymentSuccess", PaymentSuccessComponent);
export const PlanButton = island("PlanButton", PlanButtonComponent);
export const SubscriptionCard = island("SubscriptionCard", SubscriptionCardComponent);
export const Toaster = island("Toaster", ToasterComponent);
export const VatExemption = island("VatExemption", VatExemptionComponent);
export const YourData = island("YourData", YourDataComponent);
